/**
 * Logo upload in the admin (issue 16, item 5) through the real server and a real git content
 * repository: PUT /api/v1/admin/<kind>/logo takes the image itself, made into the site's square
 * WebP by sharp and committed as `content/logos/<kind>/<slug>.webp` by the admin (the slug's
 * other logo files go in the same commit); the running server serves it at once at
 * `/logos/<kind>/<slug>.webp` and in `/logos/index.json`. Renames move a logo with the record,
 * deletes remove it, a hand commit's logo is shown after catching up, and every bad upload is a
 * clear error that leaves the repository as it was.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { optimiseLogo } from '../../src/logos/logo-image.ts';
import { LogoChangeSchema, LogoStateSchema } from '../../src/schemas/answers.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { ADMIN, call, changedFiles, expectError, expectUnchanged, git, headOf, repoState, uniqueWord, useAdminServer } from '../helpers/writes-harness.ts';

const server = useAdminServer();
const { admin } = server;

/** A PNG of `width`×`height` in one colour. */
const png = (width: number, height: number, colour = '#d2452d'): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** PUT the image as the body, as the admin's browser does. */
async function upload(kind: 'deals' | 'startups', query: string, bytes: Uint8Array, type = 'image/png', cookie = server.cookie): Promise<Awaited<ReturnType<typeof call>>> {
  const response = await fetch(`${server.env.url}/api/v1/admin/${kind}/logo?${query}`, {
    method: 'PUT',
    headers: { 'Content-Type': type, Origin: server.env.url, Cookie: cookie },
    body: new Uint8Array(bytes),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : undefined, text };
}

/** The served image (status, type, bytes). */
async function served(path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; etag: string | null; bytes: Buffer }> {
  const response = await fetch(`${server.env.url}${path}`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), etag: response.headers.get('etag'), bytes: Buffer.from(await response.arrayBuffer()) };
}

async function newDeal(word = uniqueWord()): Promise<Deal> {
  const created = await admin('POST', '/api/v1/deals', {
    title: `Lumen ${word} credits`,
    provider: `Lumen ${word}`,
    category: 'cloud-credits',
    applicationUrl: 'https://lumen.example/apply',
    value: '$500',
  });
  expect(created.status, created.text).toBe(200);
  return (created.body as { deal: Deal }).deal;
}

/** What the build makes of a committed logo file (logo-image.ts), which the running server serves as well. */
async function asBuilt(kind: string, slug: string): Promise<Buffer> {
  const made = await optimiseLogo(readFileSync(join(server.env.contentDir, 'logos', kind, `${slug}.webp`)));
  if (!made.ok) throw new Error(made.detail);
  return made.webp;
}

describe('uploading a logo', () => {
  test('a PNG becomes the square WebP the site shows, committed by the admin and served at once', async () => {
    const deal = await newDeal();
    const result = await upload('deals', `slug=${deal.slug}`, await png(300, 120));
    expect(result.status, result.text).toBe(200);
    const answer = LogoChangeSchema.parse(result.body);
    expect(answer).toMatchObject({ success: true, slug: deal.slug, logo: `/logos/deals/${deal.slug}.webp`, commit: headOf(server.env.repo) });
    expect(changedFiles(server.env.repo)).toEqual([['A', `content/logos/deals/${deal.slug}.webp`]]);
    expect(git(server.env.repo, 'log', '-1', '--format=%ae|%s').trim()).toBe(`${ADMIN.email}|Logo for deal ${deal.slug}`);
    const file = readFileSync(join(server.env.contentDir, 'logos', 'deals', `${deal.slug}.webp`));
    expect(await sharp(file).metadata()).toMatchObject({ format: 'webp', width: 96, height: 96 });

    const image = await served(`/logos/deals/${deal.slug}.webp`);
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/webp');
    expect(image.bytes.equals(await asBuilt('deals', deal.slug))).toBe(true);
    expect((await served(`/logos/deals/${deal.slug}.webp`, { 'If-None-Match': image.etag ?? '' })).status).toBe(304);
    const index = JSON.parse((await served('/logos/index.json')).bytes.toString('utf8')) as { deals: string[] };
    expect(index.deals).toContain(deal.slug);
    // Kept byte for byte: the upload is the finished tile, not made again.
    expect(image.bytes.equals(file)).toBe(true);
    const state = LogoStateSchema.parse((await admin('GET', `/api/v1/admin/deals/logo?slug=${deal.slug}`)).body);
    expect(state).toMatchObject({ slug: deal.slug, file: `logos/deals/${deal.slug}.webp` });
  });

  test('a new upload replaces the old one, and the slug’s other logo files go in the same commit', async () => {
    const deal = await newDeal();
    // An SVG committed by hand would win over a WebP at build (logo-files.ts ranks types): the upload removes it.
    mkdirSync(join(server.env.contentDir, 'logos', 'deals'), { recursive: true });
    writeFileSync(join(server.env.contentDir, 'logos', 'deals', `${deal.slug}.svg`), '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#123"/></svg>');
    git(server.env.repo, 'add', '--', `content/logos/deals/${deal.slug}.svg`);
    git(server.env.repo, '-c', 'user.name=Hand', '-c', 'user.email=hand@example.com', 'commit', '-q', '-m', 'Hand logo');
    const first = await upload('deals', `id=${deal.id}`, await png(64, 64, '#000000'));
    expect(first.status, first.text).toBe(200);
    expect(changedFiles(server.env.repo).sort()).toEqual([
      ['A', `content/logos/deals/${deal.slug}.webp`],
      ['D', `content/logos/deals/${deal.slug}.svg`],
    ]);
    const before = (await served(`/logos/deals/${deal.slug}.webp`)).bytes;
    const second = await upload('deals', `slug=${deal.slug}&id=${deal.id}`, await png(64, 64, '#ffffff'));
    expect(second.status, second.text).toBe(200);
    expect(changedFiles(server.env.repo)).toEqual([['M', `content/logos/deals/${deal.slug}.webp`]]);
    const after = await served(`/logos/deals/${deal.slug}.webp`);
    expect(after.bytes.equals(before)).toBe(false);
    expect(after.bytes.equals(await asBuilt('deals', deal.slug))).toBe(true);
  });

  test('a startup for sale takes a logo too (an SVG, rasterised)', async () => {
    const listing = await admin('POST', '/api/v1/admin/startups', { name: `Quill ${uniqueWord()} Labs`, category: 'saas' });
    expect(listing.status, listing.text).toBe(200);
    const slug = (listing.body as { startup: { slug: string } }).startup.slug;
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" fill="#2d6cd2"/></svg>');
    const result = await upload('startups', `slug=${slug}`, svg, 'image/svg+xml');
    expect(result.status, result.text).toBe(200);
    expect(changedFiles(server.env.repo)).toEqual([['A', `content/logos/startups/${slug}.webp`]]);
    const image = await served(`/logos/startups/${slug}.webp`);
    expect(image.type).toBe('image/webp');
    expect(await sharp(image.bytes).metadata()).toMatchObject({ format: 'webp', width: 96, height: 96 });
  });
});

describe('a draft’s logo', () => {
  test('is committed, but neither served at its public address nor listed; the admin reads it', async () => {
    const word = uniqueWord();
    const created = await admin('POST', '/api/v1/deals', {
      title: `Draft ${word} credits`,
      provider: `Draft ${word}`,
      category: 'cloud-credits',
      applicationUrl: 'https://draft.example/apply',
      draft: true,
    });
    expect(created.status, created.text).toBe(200);
    const slug = (created.body as { deal: Deal }).deal.slug;
    expect((await upload('deals', `slug=${slug}`, await png(30, 30))).status).toBe(200);
    expect((await served(`/logos/deals/${slug}.webp`)).status).toBe(404);
    const index = JSON.parse((await served('/logos/index.json')).bytes.toString('utf8')) as { deals: string[] };
    expect(index.deals).not.toContain(slug);
    // The admin sees it.
    const state = await admin('GET', `/api/v1/admin/deals/logo?slug=${slug}`);
    expect(LogoStateSchema.parse(state.body)).toMatchObject({ slug, file: `logos/deals/${slug}.webp` });
    const image = await served((state.body as { image: string }).image, { Cookie: server.cookie, Accept: 'image/webp,image/*,*/*;q=0.8' });
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/webp');
    expect((await served((state.body as { image: string }).image, { Accept: 'image/webp' })).status).toBe(401);
  });
});

describe('the logo follows its record', () => {
  test('a rename moves the logo in the same commit; a delete removes it', async () => {
    const deal = await newDeal();
    expect((await upload('deals', `slug=${deal.slug}`, await png(50, 50))).status).toBe(200);
    const renamed = `${deal.slug}-renamed`;
    const moved = await admin('PUT', '/api/v1/deals', { id: deal.id, slug: renamed });
    expect(moved.status, moved.text).toBe(200);
    expect(
      changedFiles(server.env.repo)
        .map(([status, path]) => `${status?.[0]} ${path}`)
        .sort(),
    ).toEqual([`R content/deals/${deal.slug}.md`, `R content/logos/deals/${deal.slug}.webp`].sort());
    expect((await served(`/logos/deals/${renamed}.webp`)).status).toBe(200);
    expect((await served(`/logos/deals/${deal.slug}.webp`)).status).toBe(404);

    const deleted = await admin('DELETE', `/api/v1/deals?id=${deal.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(changedFiles(server.env.repo).sort()).toEqual([
      ['D', `content/deals/${renamed}.md`],
      ['D', `content/logos/deals/${renamed}.webp`],
    ]);
    expect((await served(`/logos/deals/${renamed}.webp`)).status).toBe(404);
  });

  test('renamed onto a slug with a stray logo file: the stray file goes, the moved logo is the one used', async () => {
    const deal = await newDeal();
    expect((await upload('deals', `slug=${deal.slug}`, await png(50, 50))).status).toBe(200);
    const target = `${deal.slug}-moved`;
    // A file nobody's (an SVG, which the build would prefer over the WebP moved in).
    writeFileSync(join(server.env.contentDir, 'logos', 'deals', `${target}.svg`), '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
    git(server.env.repo, 'add', '--', `content/logos/deals/${target}.svg`);
    git(server.env.repo, '-c', 'user.name=Hand', '-c', 'user.email=hand@example.com', 'commit', '-q', '-m', 'Stray logo');
    expect((await admin('PUT', '/api/v1/deals', { id: deal.id, slug: target })).status).toBe(200);
    const names = git(server.env.repo, 'ls-tree', '--name-only', 'HEAD', 'content/logos/deals/')
      .split('\n')
      .filter((name) => name.includes(target));
    expect(names).toEqual([`content/logos/deals/${target}.webp`]);
    expect((await served(`/logos/deals/${target}.webp`)).status).toBe(200);
  });

  test('DELETE …/logo removes the files (the monogram shows); again, it is a 404', async () => {
    const deal = await newDeal();
    expect((await upload('deals', `slug=${deal.slug}`, await png(50, 50))).status).toBe(200);
    const removed = await admin('DELETE', `/api/v1/admin/deals/logo?slug=${deal.slug}`);
    expect(removed.status, removed.text).toBe(200);
    expect(LogoChangeSchema.parse(removed.body)).toMatchObject({ success: true, slug: deal.slug, commit: headOf(server.env.repo) });
    expect(changedFiles(server.env.repo)).toEqual([['D', `content/logos/deals/${deal.slug}.webp`]]);
    expect((await served(`/logos/deals/${deal.slug}.webp`)).status).toBe(404);
    const index = JSON.parse((await served('/logos/index.json')).bytes.toString('utf8')) as { deals: string[] };
    expect(index.deals).not.toContain(deal.slug);
    expectError(await admin('DELETE', `/api/v1/admin/deals/logo?slug=${deal.slug}`), 404, 'not_found');
  });

  test('a logo committed by hand is served once the server catches up (as after a pull)', async () => {
    const deal = await newDeal();
    mkdirSync(join(server.env.contentDir, 'logos', 'deals'), { recursive: true });
    writeFileSync(join(server.env.contentDir, 'logos', 'deals', `${deal.slug}.png`), await png(40, 80, '#22aa44'));
    git(server.env.repo, 'add', '--', `content/logos/deals/${deal.slug}.png`);
    git(server.env.repo, '-c', 'user.name=Hand', '-c', 'user.email=hand@example.com', 'commit', '-q', '-m', 'Hand logo');
    expect((await served(`/logos/deals/${deal.slug}.webp`)).status).toBe(404);
    await server.env.server.deps.content.catchUp();
    const image = await served(`/logos/deals/${deal.slug}.webp`);
    expect(image.status).toBe(200);
    expect(await sharp(image.bytes).metadata()).toMatchObject({ format: 'webp', width: 96, height: 96 });
  });
});

describe('bad uploads: a clear error, and the repository as it was', () => {
  test.each([
    ['a type that is no image', 'text/plain', Buffer.from('hello'), 415, 'bad_request'],
    ['bytes that are no image', 'image/png', Buffer.from('not a png at all'), 400, 'validation_error'],
    ['more than 1 MB', 'image/png', Buffer.alloc(1024 * 1024 + 1, 1), 413, 'bad_request'],
  ])('%s', async (_what, type, bytes, status, code) => {
    const deal = await newDeal();
    const before = repoState(server.env.repo);
    expectError(await upload('deals', `slug=${deal.slug}`, bytes, type), status, code);
    expectUnchanged(server.env.repo, before);
    expect((await served(`/logos/deals/${deal.slug}.webp`)).status).toBe(404);
  });

  test('a picture claiming more pixels than allowed is refused before it is decoded', async () => {
    const deal = await newDeal();
    const before = repoState(server.env.repo);
    // 6,000 × 6,000 of one colour compresses to a few KB, but decodes to 108 MB.
    const bomb = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const result = await upload('deals', `slug=${deal.slug}`, bomb);
    expectError(result, 400, 'validation_error');
    expect(result.text).toContain('6000×6000');
    expectUnchanged(server.env.repo, before);
  });

  test('the record must be named and exist; only an admin, from the site itself, may upload', async () => {
    const image = await png(20, 20);
    const before = repoState(server.env.repo);
    expectError(await upload('deals', '', image), 400, 'validation_error');
    expectError(await upload('deals', 'slug=no-such-deal-here', image), 404, 'not_found');
    expectError(await upload('deals', 'slug=no-such-deal-here', image, 'image/png', server.memberCookie), 403, 'forbidden');
    expectError(await upload('deals', 'slug=no-such-deal-here', image, 'image/png', ''), 401, 'unauthorized');
    const foreign = await fetch(`${server.env.url}/api/v1/admin/deals/logo?slug=x`, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png', Origin: 'https://evil.example', Cookie: server.cookie },
      body: new Uint8Array(image),
    });
    expect(foreign.status).toBe(403);
    expectUnchanged(server.env.repo, before);
  });
});
