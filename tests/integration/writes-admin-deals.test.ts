/**
 * Admin deal writes through the real server and a real git content repository (SPEC POST, PUT
 * and DELETE /deals; DESIGN "Writes: the content store" and "success bodies of admin writes"):
 * every accepted write is exactly one commit by the admin and is visible to the next read; every
 * refused write leaves the repository (HEAD, index and work tree) exactly as it was.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { describe, expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import * as z from 'zod';
import { DealContractSchema, ErrorBodySchema, expectDealList } from '../helpers/api-schemas.ts';
import {
  ADMIN,
  MEMBER,
  call,
  changedFiles,
  commitCount,
  expectError,
  expectUnchanged,
  git,
  headOf,
  login,
  repoState,
  uniqueWord,
  useWriteServer,
  type JsonResult,
  type WriteServer,
} from '../helpers/writes-harness.ts';

let env: WriteServer;
let cookie: string;

useWriteServer([ADMIN, MEMBER], async (started) => {
  env = started;
  cookie = await login(env.url, ADMIN);
});

const today = (): string => new Date().toISOString().slice(0, 10);

/** An admin request from the site itself. */
const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResult> => call(env.url, method, path, { cookie, body, ...(headers ? { headers } : {}) });

/** GET one deal by slug: the deal, or undefined on 404. */
async function readDeal(slug: string): Promise<Deal | undefined> {
  const result = await call(env.url, 'GET', `/api/v1/deals?slug=${encodeURIComponent(slug)}`);
  if (result.status === 404) return undefined;
  expect(result.status, result.text).toBe(200);
  return DealContractSchema.parse((result.body as { deal: unknown }).deal) as Deal;
}

/** Slugs a public search for `words` returns (all statuses, all scopes). */
async function searchSlugs(words: string): Promise<string[]> {
  const result = await call(env.url, 'GET', `/api/v1/deals?search=${encodeURIComponent(words)}&status=all&scope=all`);
  expect(result.status, result.text).toBe(200);
  return expectDealList(result.body).deals.map((d) => d.slug);
}

interface PartialDeal {
  /** The request body: title, provider, category and applicationUrl only. */
  input: { title: string; provider: string; category: string; applicationUrl: string };
  /** The slug the server derives from the title. */
  slug: string;
  /** The unique word in the title (for search). */
  word: string;
}

/** A minimal valid partial deal with a unique title. */
function partialDeal(word = uniqueWord()): PartialDeal {
  return { input: { title: `Zeta ${word} credits`, provider: 'Zeta Cloud', category: 'cloud-credits', applicationUrl: 'https://zeta.example/apply' }, slug: `zeta-${word}-credits`, word };
}

const fileOf = (slug: string): string => join(env.contentDir, 'deals', `${slug}.md`);
const authorOfHead = (): string => git(env.repo, 'log', '-1', '--format=%ae').trim();

describe('POST /api/v1/deals: one deal', () => {
  test('a partial deal is created with defaults, is readable and searchable at once, and is exactly one commit by the admin adding its file', async () => {
    const before = repoState(env.repo);
    const { slug, word, input } = partialDeal();
    const result = await admin('POST', '/api/v1/deals', input);
    expect(result.status, result.text).toBe(200);
    const body = result.body as { success: boolean; deal: Deal };
    expect(Object.keys(body).sort()).toEqual(['deal', 'success']);
    expect(body.success).toBe(true);
    expect(DealContractSchema.safeParse(body.deal).success).toBe(true);
    expect(body.deal).toEqual({
      id: expect.stringMatching(/^d-[0-9a-f]{8}$/) as unknown as string,
      slug,
      title: input.title,
      provider: input.provider,
      category: 'cloud-credits',
      applicationUrl: input.applicationUrl,
      status: 'active',
      featured: false,
      recommended: false,
      verified: false,
      lastUpdated: today(),
    });

    expect(await readDeal(slug)).toEqual(body.deal);
    const byId = await call(env.url, 'GET', `/api/v1/deals?id=${body.deal.id}`);
    expect((byId.body as { deal: Deal }).deal.slug).toBe(slug);
    expect(await searchSlugs(word)).toEqual([slug]);
    const list = expectDealList((await call(env.url, 'GET', '/api/v1/deals')).body);
    expect(list.deals.map((d) => d.slug)).toContain(slug);

    expect(commitCount(env.repo)).toBe(before.count + 1);
    expect(git(env.repo, 'rev-parse', 'HEAD~1').trim()).toBe(before.head);
    expect(changedFiles(env.repo)).toEqual([['A', `content/deals/${slug}.md`]]);
    expect(authorOfHead()).toBe(ADMIN.email);
    expect(git(env.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const file = matter(readFileSync(fileOf(slug), 'utf8'));
    expect(file.data).toMatchObject({ id: body.deal.id, title: input.title, category: 'cloud-credits', status: 'active' });
  });

  test('a duplicate slug (given, or derived from the title) is 400 conflict and changes nothing', async () => {
    const before = repoState(env.repo);
    const bySlug = await admin('POST', '/api/v1/deals', { slug: 'aws-activate', title: 'Another AWS', provider: 'AWS', category: 'cloud-credits', applicationUrl: 'https://aws.example' });
    expectError(bySlug, 400, 'conflict');
    const byTitle = await admin('POST', '/api/v1/deals', { title: 'Stripe Atlas', provider: 'Stripe', category: 'saas-discounts', applicationUrl: 'https://stripe.example' });
    expectError(byTitle, 400, 'conflict');
    expectUnchanged(env.repo, before);
    expect((await readDeal('aws-activate'))?.id).toBe('d-aws00001');
    expect((await readDeal('stripe-atlas'))?.id).toBe('d-str00005');
  });

  const invalid: Array<{ name: string; patch: Record<string, unknown>; field: string }> = [
    { name: 'an unknown category', patch: { category: 'pet-food' }, field: 'category' },
    { name: 'a javascript: applicationUrl', patch: { applicationUrl: 'javascript:alert(1)' }, field: 'applicationUrl' },
    { name: 'a relative applicationUrl', patch: { applicationUrl: '/apply' }, field: 'applicationUrl' },
    { name: 'an unknown status', patch: { status: 'nope' }, field: 'status' },
    { name: 'an unknown field', patch: { colour: 'red' }, field: 'colour' },
    { name: 'a non-boolean featured', patch: { featured: 'yes' }, field: 'featured' },
    { name: 'a non-array tags', patch: { tags: 'a,b' }, field: 'tags' },
    { name: 'an unknown difficulty', patch: { difficulty: 'trivial' }, field: 'difficulty' },
    { name: 'a missing provider', patch: { provider: undefined }, field: 'provider' },
    { name: 'a malformed slug', patch: { slug: 'Not A Slug' }, field: 'slug' },
  ];
  for (const { name, patch, field } of invalid) {
    test(`${name} is 400 validation_error naming \`${field}\`; no commit, no file`, async () => {
      const before = repoState(env.repo);
      const { slug, input } = partialDeal();
      const body = { ...input, ...patch };
      const result = await admin('POST', '/api/v1/deals', JSON.parse(JSON.stringify(body)) as unknown);
      const error = expectError(result, 400, 'validation_error');
      expect(error.error).toContain(field);
      expectUnchanged(env.repo, before);
      expect(existsSync(fileOf(slug))).toBe(false);
      expect(await readDeal(slug)).toBeUndefined();
    });
  }

  test("?errors=all: `fields` names every field with its first problem, also without a title or with a malformed slug; without it, SPEC's keys alone", async () => {
    const before = repoState(env.repo);
    const ListedErrorSchema = z.strictObject({ ...ErrorBodySchema.shape, fields: z.array(z.strictObject({ field: z.string(), message: z.string().min(1) })).min(1) });
    const bad = { provider: 'Zeta', category: 'pet-food', applicationUrl: 'ftp://zeta.example', status: 'nope' };
    for (const [label, body, named] of [
      ['with a title', { ...bad, title: 'Zeta all problems' }, ''],
      ['without a title', bad, 'title'],
      ['with a malformed slug', { ...bad, title: 'Zeta', slug: 'Not A Slug' }, 'slug'],
    ] as const) {
      const listed = await admin('POST', '/api/v1/deals?errors=all', body);
      expect(listed.status, listed.text).toBe(400);
      const answer = ListedErrorSchema.parse(listed.body);
      const fields = answer.fields.map((f) => f.field);
      expect(fields, label).toEqual(expect.arrayContaining(['category', 'applicationUrl', 'status', ...(named ? [named] : [])]));
      expect(new Set(fields).size, label).toBe(fields.length);
      expect(answer.error, label).toBe(`${answer.fields[0]?.field}: ${answer.fields[0]?.message}`);
      const plain = expectError(await admin('POST', '/api/v1/deals', body), 400, 'validation_error');
      expect(Object.keys(plain).sort(), label).toEqual(['code', 'error', 'hint', 'success', 'timestamp']);
    }
    const update = await admin('PUT', '/api/v1/deals?errors=all', { slug: 'aws-activate', title: '', applicationUrl: 'nope' });
    expect(ListedErrorSchema.parse(update.body).fields.map((f) => f.field)).toEqual(expect.arrayContaining(['title', 'applicationUrl']));
    expectUnchanged(env.repo, before);
  });

  test('malformed JSON is 400 bad_request; a JSON array body is 400 validation_error; neither changes anything', async () => {
    const before = repoState(env.repo);
    expectError(await call(env.url, 'POST', '/api/v1/deals', { cookie, rawBody: '{"title": "Broken", ' }), 400, 'bad_request');
    expectError(await admin('POST', '/api/v1/deals', [{ title: 'In an array' }]), 400, 'validation_error');
    expectError(await admin('POST', '/api/v1/deals', { provider: 'No title or slug', category: 'cloud-credits', applicationUrl: 'https://x.example' }), 400, 'validation_error');
    expectUnchanged(env.repo, before);
  });
});

describe('POST /api/v1/deals: bulk upsert { deals: [...] }', () => {
  test('creates new slugs and updates existing ones in one commit, answering the counts', async () => {
    const before = repoState(env.repo);
    const a = partialDeal();
    const b = partialDeal();
    const result = await admin('POST', '/api/v1/deals', {
      deals: [a.input, { ...b.input, slug: b.slug, category: 'saas-discounts', featured: true }, { slug: 'digitalocean-hatch', value: 'Up to $100k (bulk)' }],
    });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ success: true, created: 2, updated: 1, deleted: 0 });
    expect(commitCount(env.repo)).toBe(before.count + 1);
    expect(authorOfHead()).toBe(ADMIN.email);
    expect(changedFiles(env.repo).sort()).toEqual(
      [
        ['A', `content/deals/${a.slug}.md`],
        ['A', `content/deals/${b.slug}.md`],
        ['M', 'content/deals/digitalocean-hatch.md'],
      ].sort(),
    );
    expect((await readDeal(a.slug))?.status).toBe('active');
    expect((await readDeal(b.slug))?.featured).toBe(true);
    const hatch = await readDeal('digitalocean-hatch');
    expect(hatch?.value).toBe('Up to $100k (bulk)');
    expect(hatch?.id).toBe('d-dig00007');
    expect(hatch?.title).toBe('DigitalOcean Hatch');
    expect(git(env.repo, 'status', '--porcelain')).toBe('');
  });

  test('is all-or-nothing: one invalid item is 400 and no item is written or visible', async () => {
    const before = repoState(env.repo);
    const a = partialDeal();
    const b = partialDeal();
    const bad = partialDeal();
    const result = await admin('POST', '/api/v1/deals', {
      deals: [a.input, { slug: 'aws-activate', value: 'Changed by a bulk that fails' }, b.input, { ...bad.input, category: 'no-such-category' }],
    });
    const error = expectError(result, 400, 'validation_error');
    expect(error.error).toContain('category');
    expectUnchanged(env.repo, before);
    for (const slug of [a.slug, b.slug, bad.slug]) {
      expect(await readDeal(slug)).toBeUndefined();
      expect(existsSync(fileOf(slug))).toBe(false);
    }
    expect((await readDeal('aws-activate'))?.value).not.toBe('Changed by a bulk that fails');
  });

  test('the same slug twice in one request is 400 conflict; an empty list is 400; neither changes anything', async () => {
    const before = repoState(env.repo);
    const a = partialDeal();
    const item = { ...a.input, slug: a.slug };
    expectError(await admin('POST', '/api/v1/deals', { deals: [item, item] }), 400, 'conflict');
    expectError(await admin('POST', '/api/v1/deals', { deals: [] }), 400, 'validation_error');
    expectUnchanged(env.repo, before);
  });
});

describe('PUT /api/v1/deals', () => {
  test('by slug: changes the named field only, keeps the id, one commit modifying the file', async () => {
    const before = repoState(env.repo);
    const old = await readDeal('y-combinator');
    const result = await admin('PUT', '/api/v1/deals', { slug: 'y-combinator', value: '$500k for 7%' });
    expect(result.status, result.text).toBe(200);
    const deal = (result.body as { success: boolean; deal: Deal }).deal;
    expect(result.body).toMatchObject({ success: true });
    expect(deal).toEqual({ ...old, value: '$500k for 7%', lastUpdated: today() });
    expect(await readDeal('y-combinator')).toEqual(deal);
    expect(commitCount(env.repo)).toBe(before.count + 1);
    expect(changedFiles(env.repo)).toEqual([['M', 'content/deals/y-combinator.md']]);
    expect(authorOfHead()).toBe(ADMIN.email);
  });

  test('by id', async () => {
    const result = await admin('PUT', '/api/v1/deals', { id: 'd-hub00006', status: 'active' });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { deal: Deal }).deal).toMatchObject({ id: 'd-hub00006', slug: 'hubspot-startups', status: 'active' });
    expect((await readDeal('hubspot-startups'))?.status).toBe('active');
  });

  test('neither id nor slug is 400 validation_error; an unknown one is 404 not_found; nothing changes', async () => {
    const before = repoState(env.repo);
    expectError(await admin('PUT', '/api/v1/deals', { title: 'Nameless' }), 400, 'validation_error');
    const bySlug = expectError(await admin('PUT', '/api/v1/deals', { slug: 'no-such-deal', title: 'X' }), 404, 'not_found');
    expect(bySlug.hint).toBeDefined();
    expectError(await admin('PUT', '/api/v1/deals', { id: 'd-nope0000', title: 'X' }), 404, 'not_found');
    expectUnchanged(env.repo, before);
  });

  test('{ id, slug: new } renames the file (git sees a rename), keeps the id; the old slug 404s, the new one resolves', async () => {
    const before = repoState(env.repo);
    const old = await readDeal('google-cloud');
    const result = await admin('PUT', '/api/v1/deals', { id: 'd-gcp00002', slug: 'google-cloud-startups' });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { deal: Deal }).deal).toEqual({ ...old, slug: 'google-cloud-startups', lastUpdated: today() });
    expect(commitCount(env.repo)).toBe(before.count + 1);
    const changes = changedFiles(env.repo);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.[0]).toMatch(/^R\d+$/);
    expect(changes[0]?.slice(1)).toEqual(['content/deals/google-cloud.md', 'content/deals/google-cloud-startups.md']);
    expect(await readDeal('google-cloud')).toBeUndefined();
    expect((await readDeal('google-cloud-startups'))?.id).toBe('d-gcp00002');
    const byId = await call(env.url, 'GET', '/api/v1/deals?id=d-gcp00002');
    expect((byId.body as { deal: Deal }).deal.slug).toBe('google-cloud-startups');
    expect(existsSync(fileOf('google-cloud'))).toBe(false);
    expect(git(env.repo, 'status', '--porcelain')).toBe('');
  });

  test('renaming onto an existing slug is 400 conflict and changes nothing', async () => {
    const before = repoState(env.repo);
    expectError(await admin('PUT', '/api/v1/deals', { id: 'd-caf00010', slug: 'stripe-atlas' }), 400, 'conflict');
    expectUnchanged(env.repo, before);
    expect((await readDeal('stripe-atlas'))?.id).toBe('d-str00005');
    expect((await readDeal('cafe-zurich'))?.id).toBe('d-caf00010');
  });

  test('If-Match with the ETag of GET ?slug= is accepted; the now stale ETag, or another one, is 412', async () => {
    const read = await fetch(`${env.url}/api/v1/deals?slug=cafe-zurich`);
    await read.text();
    const etag = read.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const first = await admin('PUT', '/api/v1/deals', { slug: 'cafe-zurich', value: 'One free day' }, { 'If-Match': etag as string });
    expect(first.status, first.text).toBe(200);
    const before = repoState(env.repo);
    const stale = await admin('PUT', '/api/v1/deals', { slug: 'cafe-zurich', value: 'Two free days' }, { 'If-Match': etag as string });
    expect(stale.status, stale.text).toBe(412);
    expect((stale.body as { success: boolean }).success).toBe(false);
    const other = await admin('PUT', '/api/v1/deals', { slug: 'cafe-zurich', value: 'Three free days' }, { 'If-Match': '"not-the-etag"' });
    expect(other.status, other.text).toBe(412);
    // A write compares strongly: the current tag, listed as weak, matches nothing.
    const current = (await fetch(`${env.url}/api/v1/deals?slug=cafe-zurich`)).headers.get('etag') as string;
    const weak = await admin('PUT', '/api/v1/deals', { slug: 'cafe-zurich', value: 'Four free days' }, { 'If-Match': `"not-the-etag", W/${current}` });
    expect(weak.status, weak.text).toBe(412);
    expectUnchanged(env.repo, before);
    expect((await readDeal('cafe-zurich'))?.value).toBe('One free day');
  });

  test('`null` removes an optional field from the deal and its file', async () => {
    expect((await readDeal('stripe-atlas'))?.shortDescription).toBeDefined();
    const result = await admin('PUT', '/api/v1/deals', { slug: 'stripe-atlas', shortDescription: null });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { deal: Deal }).deal).not.toHaveProperty('shortDescription');
    expect(await readDeal('stripe-atlas')).not.toHaveProperty('shortDescription');
    expect(matter(readFileSync(fileOf('stripe-atlas'), 'utf8')).data).not.toHaveProperty('shortDescription');
  });

  test('`null` for a required field, or an invalid value, is 400 validation_error naming it and changes nothing', async () => {
    const before = repoState(env.repo);
    expect(expectError(await admin('PUT', '/api/v1/deals', { slug: 'techstars', title: null }), 400, 'validation_error').error).toContain('title');
    expect(expectError(await admin('PUT', '/api/v1/deals', { slug: 'techstars', status: 'nope' }), 400, 'validation_error').error).toContain('status');
    expect(expectError(await admin('PUT', '/api/v1/deals', { slug: 'techstars', applicationUrl: 'javascript:alert(1)' }), 400, 'validation_error').error).toContain('applicationUrl');
    expectUnchanged(env.repo, before);
    expect((await readDeal('techstars'))?.title).toBe('Techstars Accelerator');
  });

  test('an unknown field is 400 validation_error naming it and changes nothing', async () => {
    const before = repoState(env.repo);
    const error = expectError(await admin('PUT', '/api/v1/deals', { slug: 'techstars', colour: 'red' }), 400, 'validation_error');
    expect(error.error).toContain('colour');
    expectUnchanged(env.repo, before);
  });
});

describe('more write rules', () => {
  for (const slug of ['../../escaped', 'Upper Case', 'nested/escaped', '-leading', 'double--hyphen']) {
    test(`renaming to the slug ${JSON.stringify(slug)} is 400 validation_error naming slug; no file is written anywhere`, async () => {
      const created = await admin('POST', '/api/v1/deals', partialDeal().input);
      expect(created.status, created.text).toBe(200);
      const deal = (created.body as { deal: Deal }).deal;
      const before = repoState(env.repo);
      const result = await admin('PUT', '/api/v1/deals', { id: deal.id, slug });
      expect(expectError(result, 400, 'validation_error').error).toContain('slug');
      expectUnchanged(env.repo, before);
      const outside = [join(env.repo, 'escaped.md'), join(env.contentDir, 'escaped.md'), ...(slug.startsWith('nested/') ? [join(env.contentDir, 'deals', 'nested')] : [])];
      for (const path of outside) expect(existsSync(path), path).toBe(false);
      expect(await readDeal(deal.slug)).toEqual(deal);
    });
  }

  test('text that YAML or front matter could misread round-trips exactly through the file', async () => {
    const word = uniqueWord();
    const input = {
      slug: `tricky-${word}`,
      title: `Deal: "quoted" # not a comment ${word}`,
      provider: 'Ünïcødé — Co. & <Partners>',
      category: 'saas-discounts',
      applicationUrl: 'https://tricky.example/apply?x=1&y=2#frag',
      tags: ['a: b', '- c', 'yes', 'null', '123'],
      value: '\'single\' and "double" quotes',
      description: '# Heading\n\n---\nnot: front matter\n---\n\nLast line with trailing spaces.',
      expiryDate: '2030-01-31',
    };
    const result = await admin('POST', '/api/v1/deals', input);
    expect(result.status, result.text).toBe(200);
    const deal = (result.body as { deal: Deal }).deal;
    expect(deal).toMatchObject(input);
    expect(await readDeal(input.slug)).toEqual(deal);
  });

  test('creating a deal with the id of another deal is 400 and changes nothing', async () => {
    const before = repoState(env.repo);
    const { input, slug } = partialDeal();
    const result = await admin('POST', '/api/v1/deals', { ...input, id: 'd-aws00001' });
    expect(result.status, result.text).toBe(400);
    expect(['validation_error', 'conflict']).toContain((result.body as { code: string }).code);
    expect((result.body as { error: string }).error).toContain('id');
    expectUnchanged(env.repo, before);
    expect(await readDeal(slug)).toBeUndefined();
    expect((await call(env.url, 'GET', '/api/v1/deals?id=d-aws00001')).status).toBe(200);
  });

  test('the unversioned alias POST /api/deals writes too, and names its successor', async () => {
    const { input, slug } = partialDeal();
    const result = await call(env.url, 'POST', '/api/deals', { cookie, body: input });
    expect(result.status, result.text).toBe(200);
    expect(result.headers.get('link')).toContain('</api/v1/deals>; rel="successor-version"');
    expect(result.headers.get('api-version')).toBe('v1');
    expect((await readDeal(slug))?.slug).toBe(slug);
  });

  test('CORS (DESIGN: admin endpoints are same-origin only): a preflight for PUT or DELETE from another origin is not granted', async () => {
    for (const method of ['PUT', 'DELETE', 'POST']) {
      const response = await fetch(`${env.url}/api/v1/deals`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' },
      });
      await response.text();
      const allowOrigin = response.headers.get('access-control-allow-origin');
      const allowMethods = (response.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
      const granted = (allowOrigin === '*' || allowOrigin === 'https://evil.example') && allowMethods.includes(method);
      expect(granted, `${method}: Access-Control-Allow-Origin ${allowOrigin}, Access-Control-Allow-Methods ${allowMethods.join(', ')}`).toBe(false);
    }
  });
});

describe('DELETE /api/v1/deals', () => {
  /** Create a throwaway deal and return its id and slug. */
  async function createDeal(): Promise<{ id: string; slug: string }> {
    const result = await admin('POST', '/api/v1/deals', partialDeal().input);
    expect(result.status, result.text).toBe(200);
    const deal = (result.body as { deal: Deal }).deal;
    return { id: deal.id, slug: deal.slug };
  }

  test('?id= deletes one deal in one commit and answers { success, deleted, ids, slugs }', async () => {
    const target = await createDeal();
    const before = repoState(env.repo);
    const result = await admin('DELETE', `/api/v1/deals?id=${target.id}`);
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ success: true, deleted: 1, ids: [target.id], slugs: [target.slug] });
    expect(commitCount(env.repo)).toBe(before.count + 1);
    expect(changedFiles(env.repo)).toEqual([['D', `content/deals/${target.slug}.md`]]);
    expect(authorOfHead()).toBe(ADMIN.email);
    expect(await readDeal(target.slug)).toBeUndefined();
    expect((await call(env.url, 'GET', `/api/v1/deals?id=${target.id}`)).status).toBe(404);
    expect(existsSync(fileOf(target.slug))).toBe(false);
  });

  test('?slug= deletes by slug', async () => {
    const target = await createDeal();
    const result = await admin('DELETE', `/api/v1/deals?slug=${target.slug}`);
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ success: true, deleted: 1, ids: [target.id], slugs: [target.slug] });
    expect(await readDeal(target.slug)).toBeUndefined();
  });

  test('?ids=a,b deletes both in one commit', async () => {
    const a = await createDeal();
    const b = await createDeal();
    const before = repoState(env.repo);
    const result = await admin('DELETE', `/api/v1/deals?ids=${a.id},${b.id}`);
    expect(result.status, result.text).toBe(200);
    const body = result.body as { success: boolean; deleted: number; ids: string[]; slugs: string[] };
    expect(body.success).toBe(true);
    expect(body.deleted).toBe(2);
    expect([...body.ids].sort()).toEqual([a.id, b.id].sort());
    expect([...body.slugs].sort()).toEqual([a.slug, b.slug].sort());
    expect(commitCount(env.repo)).toBe(before.count + 1);
    expect(changedFiles(env.repo).sort()).toEqual(
      [
        ['D', `content/deals/${a.slug}.md`],
        ['D', `content/deals/${b.slug}.md`],
      ].sort(),
    );
    expect(await readDeal(a.slug)).toBeUndefined();
    expect(await readDeal(b.slug)).toBeUndefined();
  });

  test('no id, ids or slug is 400; an unknown id is 404 and nothing at all is deleted', async () => {
    const known = await createDeal();
    const before = repoState(env.repo);
    expectError(await admin('DELETE', '/api/v1/deals'), 400, 'validation_error');
    expectError(await admin('DELETE', '/api/v1/deals?id='), 400, 'validation_error');
    expectError(await admin('DELETE', '/api/v1/deals?id=d-nope0000'), 404, 'not_found');
    expectError(await admin('DELETE', `/api/v1/deals?ids=${known.id},d-nope0000`), 404, 'not_found');
    expectError(await admin('DELETE', '/api/v1/deals?slug=no-such-deal'), 404, 'not_found');
    expectUnchanged(env.repo, before);
    expect((await readDeal(known.slug))?.id).toBe(known.id);
  });

  test('If-Match: a mismatch is 412 and nothing is deleted; the current ETag deletes', async () => {
    const target = await createDeal();
    const before = repoState(env.repo);
    const mismatch = await admin('DELETE', `/api/v1/deals?id=${target.id}`, undefined, { 'If-Match': '"stale-etag"' });
    expect(mismatch.status, mismatch.text).toBe(412);
    expectUnchanged(env.repo, before);
    expect(await readDeal(target.slug)).toBeDefined();
    const read = await fetch(`${env.url}/api/v1/deals?id=${target.id}`);
    await read.text();
    // One version cannot vouch for several deals: a delete of two with If-Match is refused.
    const other = await createDeal();
    const beforeBoth = repoState(env.repo);
    expectError(await admin('DELETE', `/api/v1/deals?ids=${target.id},${other.id}`, undefined, { 'If-Match': read.headers.get('etag') as string }), 400, 'validation_error');
    expectUnchanged(env.repo, beforeBoth);
    const ok = await admin('DELETE', `/api/v1/deals?id=${target.id}`, undefined, { 'If-Match': read.headers.get('etag') as string });
    expect(ok.status, ok.text).toBe(200);
    expect(headOf(env.repo)).not.toBe(before.head);
  });
});

describe('server health', () => {
  test('what the server serves after all these writes is exactly what a fresh build of the committed files gives', async () => {
    expect(git(env.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const built = runPipeline(await readContent(env.contentDir), { today: today() });
    expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const fromDisk = [...(built.value?.data.deals ?? [])].sort((a, b) => a.slug.localeCompare(b.slug));
    const served = expectDealList((await call(env.url, 'GET', '/api/v1/deals?status=all&scope=all&limit=5000')).body).deals;
    expect([...served].sort((a, b) => a.slug.localeCompare(b.slug))).toEqual(fromDisk);
  });
});
