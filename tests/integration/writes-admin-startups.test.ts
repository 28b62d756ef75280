/**
 * Startups for sale in the admin (issue 16, item 4) through the real server and a real git
 * content repository: /api/v1/admin/startups lists, creates, edits and deletes listings with the
 * deal writes' rules (same-origin admin session, the build's validation, If-Match, one commit
 * authored by the admin, visible to the next public read), while /api/v1/startups keeps SPEC's 405.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { describe, expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import type { Startup } from '../../src/schemas/startup.ts';
import { expectStartupList, StartupContractSchema } from '../helpers/api-schemas.ts';
import { ADMIN, call, changedFiles, commitCount, expectError, expectUnchanged, git, repoState, uniqueWord, useAdminServer } from '../helpers/writes-harness.ts';

const server = useAdminServer();
const { admin } = server;

const ADMIN_STARTUPS = '/api/v1/admin/startups';
const today = (): string => new Date().toISOString().slice(0, 10);
const authorOfHead = (): string => git(server.env.repo, 'log', '-1', '--format=%ae').trim();
const fileOf = (slug: string): string => join(server.env.contentDir, 'startups', `${slug}.md`);

/** A minimal valid listing with a unique name, and the slug the server makes of it. */
function newListing(word = uniqueWord()): { input: { name: string; category: string }; slug: string; word: string } {
  return { input: { name: `Ledger ${word} Labs`, category: 'saas' }, slug: `ledger-${word}-labs`, word };
}

/** The admin lookup of one listing: the listing and its ETag, or undefined on 404. */
async function readListing(slug: string): Promise<{ startup: Startup; etag: string } | undefined> {
  const result = await admin('GET', `${ADMIN_STARTUPS}?slug=${slug}`);
  if (result.status === 404) return undefined;
  expect(result.status, result.text).toBe(200);
  return { startup: StartupContractSchema.parse((result.body as { startup: unknown }).startup) as Startup, etag: result.headers.get('etag') as string };
}

/** Slugs the public list answers for a search. */
async function publicSlugs(search: string): Promise<string[]> {
  const result = await call(server.env.url, 'GET', `/api/v1/startups?search=${encodeURIComponent(search)}`);
  expect(result.status, result.text).toBe(200);
  return expectStartupList(result.body).startups.map((s) => s.slug);
}

async function create(): Promise<Startup> {
  const { input } = newListing();
  const result = await admin('POST', ADMIN_STARTUPS, input);
  expect(result.status, result.text).toBe(200);
  return (result.body as { startup: Startup }).startup;
}

describe('who may call /api/v1/admin/startups', () => {
  test('without a session every method is 401, with a member session 403, and nothing changes', async () => {
    const before = repoState(server.env.repo);
    const { input } = newListing();
    const requests: [string, string, unknown?][] = [
      ['GET', ADMIN_STARTUPS],
      ['POST', ADMIN_STARTUPS, input],
      ['PUT', ADMIN_STARTUPS, { slug: 'invoicenest', name: 'X' }],
      ['DELETE', `${ADMIN_STARTUPS}?slug=invoicenest`],
    ];
    for (const [method, path, body] of requests) {
      expectError(await call(server.env.url, method, path, { body }), 401, 'unauthorized');
      expectError(await call(server.env.url, method, path, { body, cookie: server.memberCookie }), 403, 'forbidden');
    }
    expectUnchanged(server.env.repo, before);
  });

  test('an admin write from another origin (or with no Origin and a cross-site fetch) is 403 and changes nothing', async () => {
    const before = repoState(server.env.repo);
    const { input } = newListing();
    expectError(await call(server.env.url, 'POST', ADMIN_STARTUPS, { body: input, cookie: server.cookie, origin: 'https://evil.example' }), 403, 'forbidden');
    expectError(
      await call(server.env.url, 'PUT', ADMIN_STARTUPS, { body: { slug: 'invoicenest', name: 'X' }, cookie: server.cookie, origin: null, headers: { 'Sec-Fetch-Site': 'cross-site' } }),
      403,
      'forbidden',
    );
    expectError(await call(server.env.url, 'DELETE', `${ADMIN_STARTUPS}?slug=invoicenest`, { cookie: server.cookie, origin: 'null' }), 403, 'forbidden');
    expectUnchanged(server.env.repo, before);
  });

  test('CORS: a preflight from another origin is granted no method; the public /api/v1/startups still answers writes 405', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const response = await fetch(`${server.env.url}${ADMIN_STARTUPS}`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': method } });
      await response.text();
      expect(response.headers.get('access-control-allow-origin'), method).toBeNull();
    }
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const result = await call(server.env.url, method, '/api/v1/startups', { cookie: server.cookie, body: { name: 'X' } });
      expectError(result, 405, 'method_not_allowed');
      expect(result.headers.get('allow')).not.toContain(method);
    }
  });
});

describe('GET /api/v1/admin/startups', () => {
  test("lists every listing in the catalog's order a page at a time, `total` counting them all", async () => {
    const all = await admin('GET', ADMIN_STARTUPS);
    expect(all.status, all.text).toBe(200);
    expect(all.headers.get('cache-control')).toBe('no-store');
    const { startups, total } = all.body as { startups: Startup[]; total: number };
    expect(startups.length).toBe(total);
    for (const startup of startups) expect(StartupContractSchema.safeParse(startup).success).toBe(true);
    const publicOrder = expectStartupList((await call(server.env.url, 'GET', '/api/v1/startups')).body).startups.map((s) => s.slug);
    expect(startups.map((s) => s.slug)).toEqual(publicOrder);
    const page = await admin('GET', `${ADMIN_STARTUPS}?limit=2&offset=1`);
    expect(page.body).toEqual({ success: true, startups: startups.slice(1, 3), total });
    expectError(await admin('GET', `${ADMIN_STARTUPS}?limit=0`), 400, 'validation_error');
  });

  test('?id= or ?slug= looks one up with an ETag (304 on If-None-Match); an unknown one, or an id and slug of two listings, is 404', async () => {
    const bySlug = await admin('GET', `${ADMIN_STARTUPS}?slug=invoicenest`);
    expect(bySlug.status, bySlug.text).toBe(200);
    expect((bySlug.body as { startup: Startup }).startup.id).toBe('s-inv00001');
    const etag = bySlug.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const byId = await admin('GET', `${ADMIN_STARTUPS}?id=s-inv00001`);
    expect(byId.body).toEqual(bySlug.body);
    expect((await admin('GET', `${ADMIN_STARTUPS}?id=s-inv00001`, undefined, { 'If-None-Match': etag as string })).status).toBe(304);
    const missing = expectError(await admin('GET', `${ADMIN_STARTUPS}?slug=no-such-listing`), 404, 'not_found');
    expect(missing.hint).toContain('/api/v1/admin/startups');
    expectError(await admin('GET', `${ADMIN_STARTUPS}?id=s-inv00001&slug=petshop`), 404, 'not_found');
  });
});

describe('POST /api/v1/admin/startups', () => {
  test('a minimal listing is created with defaults, in one commit by the admin adding its file, and the public list shows it at once', async () => {
    const before = repoState(server.env.repo);
    const { input, slug, word } = newListing();
    const result = await admin('POST', ADMIN_STARTUPS, input);
    expect(result.status, result.text).toBe(200);
    const startup = (result.body as { startup: Startup }).startup;
    expect(startup).toEqual({ id: expect.stringMatching(/^s-[0-9a-f]{8}$/) as unknown as string, slug, name: input.name, category: 'saas', featured: false, forSale: true, lastUpdated: today() });
    expect(result.headers.get('etag')).toBe((await readListing(slug))?.etag);
    expect(commitCount(server.env.repo)).toBe(before.count + 1);
    expect(changedFiles(server.env.repo)).toEqual([['A', `content/startups/${slug}.md`]]);
    expect(authorOfHead()).toBe(ADMIN.email);
    expect(git(server.env.repo, 'log', '-1', '--format=%s').trim()).toBe(`Add startup ${slug}`);
    expect(git(server.env.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(matter(readFileSync(fileOf(slug), 'utf8')).data).toMatchObject({ id: startup.id, name: input.name, category: 'saas', forSale: true });
    expect(await publicSlugs(word)).toEqual([slug]);
  });

  test("every field round-trips, the description as the file's body", async () => {
    const { input, slug } = newListing();
    const full = {
      ...input,
      slug,
      summary: 'Invoices in one click.',
      description: '# Ledger\n\nTwo founders, 900 customers.',
      revenue: 120000,
      revenueDisplay: '$120k ARR',
      askingPrice: 360000,
      askingPriceDisplay: '$360k',
      website: 'https://ledger.example',
      country: 'US',
      source: 'acquire',
      listingUrl: 'https://acquire.example/ledger',
      featured: true,
      forSale: true,
      lastUpdated: '2026-10-01',
    };
    const result = await admin('POST', ADMIN_STARTUPS, full);
    expect(result.status, result.text).toBe(200);
    expect((result.body as { startup: Startup }).startup).toEqual({ ...full, id: expect.any(String) as unknown as string });
    expect(matter(readFileSync(fileOf(slug), 'utf8')).content.trim()).toBe(full.description);
  });

  test('a slug in use (given, or made from the name) is 400 conflict and changes nothing', async () => {
    const before = repoState(server.env.repo);
    expectError(await admin('POST', ADMIN_STARTUPS, { slug: 'invoicenest', name: 'Another', category: 'saas' }), 400, 'conflict');
    expectError(await admin('POST', ADMIN_STARTUPS, { name: 'Formbird', category: 'saas' }), 400, 'conflict');
    expectUnchanged(server.env.repo, before);
  });

  const invalid: Array<{ name: string; patch: Record<string, unknown>; field: string }> = [
    { name: 'an unknown category', patch: { category: 'pet-food' }, field: 'category' },
    { name: 'an unknown source', patch: { source: 'ebay' }, field: 'source' },
    { name: 'a lower-case country', patch: { country: 'us' }, field: 'country' },
    { name: 'a negative revenue', patch: { revenue: -5 }, field: 'revenue' },
    { name: 'a text revenue', patch: { revenue: '100k' }, field: 'revenue' },
    { name: 'a javascript: website', patch: { website: 'javascript:alert(1)' }, field: 'website' },
    { name: 'an unknown field', patch: { colour: 'red' }, field: 'colour' },
    { name: 'a malformed slug', patch: { slug: 'Not A Slug' }, field: 'slug' },
    { name: 'no category', patch: { category: undefined }, field: 'category' },
  ];
  for (const { name, patch, field } of invalid) {
    test(`${name} is 400 validation_error naming \`${field}\`, as JSON; no commit, no file`, async () => {
      const before = repoState(server.env.repo);
      const { input, slug } = newListing();
      const result = await admin('POST', ADMIN_STARTUPS, JSON.parse(JSON.stringify({ ...input, ...patch })) as unknown);
      expect(result.headers.get('content-type')).toContain('application/json');
      expect(expectError(result, 400, 'validation_error').error).toContain(field);
      expectUnchanged(server.env.repo, before);
      expect(existsSync(fileOf(slug))).toBe(false);
    });
  }

  test('no name and no slug, malformed JSON and a non-object body are refused as JSON errors', async () => {
    const before = repoState(server.env.repo);
    expectError(await admin('POST', ADMIN_STARTUPS, { category: 'saas' }), 400, 'validation_error');
    expectError(await call(server.env.url, 'POST', ADMIN_STARTUPS, { cookie: server.cookie, rawBody: '{"name": ' }), 400, 'bad_request');
    expectError(await admin('POST', ADMIN_STARTUPS, [{ name: 'In an array' }]), 400, 'validation_error');
    expectUnchanged(server.env.repo, before);
  });
});

describe('?errors=all (the admin startup form)', () => {
  test('POST and PUT list every field with its first problem in `fields`; without it, the usual keys alone; nothing changes', async () => {
    const before = repoState(server.env.repo);
    const bad = { category: 'saas', country: 'usa', listingUrl: 'not a link', website: 'ftp://x.example' };
    const listed = await admin('POST', `${ADMIN_STARTUPS}?errors=all`, bad);
    expect(listed.status, listed.text).toBe(400);
    const fields = (listed.body as { fields: Array<{ field: string; message: string }> }).fields.map((f) => f.field);
    expect(fields.sort()).toEqual(['country', 'listingUrl', 'name', 'website']);
    expect(Object.keys(expectError(await admin('POST', ADMIN_STARTUPS, bad), 400, 'validation_error'))).not.toContain('fields');
    const update = await admin('PUT', `${ADMIN_STARTUPS}?errors=all`, { slug: 'invoicenest', name: '', country: 'usa' });
    expect(update.status, update.text).toBe(400);
    expect((update.body as { fields: Array<{ field: string }> }).fields.map((f) => f.field).sort()).toEqual(['country', 'name']);
    expectUnchanged(server.env.repo, before);
  });
});

describe('PUT /api/v1/admin/startups', () => {
  test('by slug: changes the named field, keeps the id, one commit modifying the file; the public list follows', async () => {
    const created = await create();
    const before = repoState(server.env.repo);
    const result = await admin('PUT', ADMIN_STARTUPS, { slug: created.slug, revenue: 250000, revenueDisplay: '$250k ARR' });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { startup: Startup }).startup).toEqual({ ...created, revenue: 250000, revenueDisplay: '$250k ARR' });
    expect(commitCount(server.env.repo)).toBe(before.count + 1);
    expect(changedFiles(server.env.repo)).toEqual([['M', `content/startups/${created.slug}.md`]]);
    expect(authorOfHead()).toBe(ADMIN.email);
    const listed = await call(server.env.url, 'GET', `/api/v1/startups?minRevenue=250000&maxRevenue=250000`);
    expect(expectStartupList(listed.body).startups.map((s) => s.slug)).toEqual([created.slug]);
  });

  test('an edit of one field of a hand-written file changes that one line (the file is edited in place, not written anew)', async () => {
    const result = await admin('PUT', ADMIN_STARTUPS, { slug: 'formbird', country: 'AT', lastUpdated: '2026-06-01' });
    expect(result.status, result.text).toBe(200);
    expect(git(server.env.repo, 'diff', '--numstat', 'HEAD~1', 'HEAD').trim()).toBe('1\t1\tcontent/startups/formbird.md');
    expect(
      git(server.env.repo, 'diff', '-U0', 'HEAD~1', 'HEAD')
        .split('\n')
        .filter((line) => /^[-+][^-+]/.test(line)),
    ).toEqual(['-country: DE', '+country: AT']);
  });

  test('{ id, slug: new } renames the file (git sees a rename) and keeps the id; the old slug is gone', async () => {
    const created = await create();
    const renamed = `${created.slug}-sold`;
    const result = await admin('PUT', ADMIN_STARTUPS, { id: created.id, slug: renamed, forSale: false });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { startup: Startup }).startup).toEqual({ ...created, slug: renamed, forSale: false });
    const changes = changedFiles(server.env.repo);
    expect(changes[0]?.[0]).toMatch(/^R\d+$/);
    expect(changes[0]?.slice(1)).toEqual([`content/startups/${created.slug}.md`, `content/startups/${renamed}.md`]);
    expect(await readListing(created.slug)).toBeUndefined();
    expect((await readListing(renamed))?.startup.id).toBe(created.id);
  });

  test('If-Match: the ETag of the admin lookup is accepted once; the now stale one, or another, is 412 and changes nothing', async () => {
    const created = await create();
    const { etag } = (await readListing(created.slug)) as { etag: string };
    const first = await admin('PUT', ADMIN_STARTUPS, { slug: created.slug, country: 'DE' }, { 'If-Match': etag });
    expect(first.status, first.text).toBe(200);
    const before = repoState(server.env.repo);
    expectError(await admin('PUT', ADMIN_STARTUPS, { slug: created.slug, country: 'FR' }, { 'If-Match': etag }), 412, 'conflict');
    expectError(await admin('PUT', ADMIN_STARTUPS, { slug: created.slug, country: 'FR' }, { 'If-Match': '"not-the-etag"' }), 412, 'conflict');
    expectUnchanged(server.env.repo, before);
    expect((await readListing(created.slug))?.startup.country).toBe('DE');
  });

  test('`null` removes an optional field; `null` for a required one, an invalid value, or no id or slug is 400; an unknown one is 404', async () => {
    const created = await create();
    const withCountry = await admin('PUT', ADMIN_STARTUPS, { slug: created.slug, country: 'GB' });
    expect(withCountry.status, withCountry.text).toBe(200);
    const removed = await admin('PUT', ADMIN_STARTUPS, { slug: created.slug, country: null });
    expect((removed.body as { startup: Startup }).startup).not.toHaveProperty('country');
    expect(matter(readFileSync(fileOf(created.slug), 'utf8')).data).not.toHaveProperty('country');
    const before = repoState(server.env.repo);
    expect(expectError(await admin('PUT', ADMIN_STARTUPS, { slug: created.slug, name: null }), 400, 'validation_error').error).toContain('name');
    expect(expectError(await admin('PUT', ADMIN_STARTUPS, { slug: created.slug, askingPrice: 1.5 }), 400, 'validation_error').error).toContain('askingPrice');
    expectError(await admin('PUT', ADMIN_STARTUPS, { name: 'Nameless' }), 400, 'validation_error');
    expectError(await admin('PUT', ADMIN_STARTUPS, { slug: 'no-such-listing', name: 'X' }), 404, 'not_found');
    expectError(await admin('PUT', ADMIN_STARTUPS, { id: created.id, slug: 'invoicenest' }), 400, 'conflict');
    expectUnchanged(server.env.repo, before);
  });
});

describe('DELETE /api/v1/admin/startups', () => {
  test('?id= deletes in one commit by the admin; the public list drops it', async () => {
    const created = await create();
    const before = repoState(server.env.repo);
    const result = await admin('DELETE', `${ADMIN_STARTUPS}?id=${created.id}`);
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ success: true, deleted: 1, ids: [created.id], slugs: [created.slug] });
    expect(commitCount(server.env.repo)).toBe(before.count + 1);
    expect(changedFiles(server.env.repo)).toEqual([['D', `content/startups/${created.slug}.md`]]);
    expect(authorOfHead()).toBe(ADMIN.email);
    expect(await readListing(created.slug)).toBeUndefined();
    expect(await publicSlugs(created.name)).not.toContain(created.slug);
  });

  test('?ids=a,b deletes both in one commit; none named is 400, an unknown id 404, a stale If-Match 412, each changing nothing', async () => {
    const [a, b] = [await create(), await create()];
    const before = repoState(server.env.repo);
    expectError(await admin('DELETE', ADMIN_STARTUPS), 400, 'validation_error');
    expectError(await admin('DELETE', `${ADMIN_STARTUPS}?ids=${a.id},s-nope0000`), 404, 'not_found');
    expectError(await admin('DELETE', `${ADMIN_STARTUPS}?id=${a.id}`, undefined, { 'If-Match': '"stale"' }), 412, 'conflict');
    expectUnchanged(server.env.repo, before);
    const both = await admin('DELETE', `${ADMIN_STARTUPS}?ids=${a.id},${b.id}`);
    expect(both.status, both.text).toBe(200);
    expect(commitCount(server.env.repo)).toBe(before.count + 1);
    expect(changedFiles(server.env.repo).map((row) => row[0])).toEqual(['D', 'D']);
  });
});

describe('server health', () => {
  test('the listings served after all these writes are exactly what a fresh build of the committed files gives', async () => {
    expect(git(server.env.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const built = runPipeline(await readContent(server.env.contentDir), { today: today() });
    expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const served = await admin('GET', `${ADMIN_STARTUPS}?limit=1000`);
    expect((served.body as { startups: Startup[] }).startups).toEqual(built.value?.data.startups);
    expect(expectStartupList((await call(server.env.url, 'GET', '/api/v1/startups')).body).startups).toEqual(built.value?.data.startups);
  });
});
