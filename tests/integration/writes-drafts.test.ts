/**
 * Drafts and preview (issue 16, item 2) through the real server, a real git content repository
 * and a real Astro build of the `valid` fixture: a draft an admin saves is in no public output
 * (API, search, MCP, sitemap, llms files, its page and Markdown twin) yet listed to the admin;
 * publishing it is one PUT, one commit, and it appears everywhere; the preview answers the page
 * exactly as the site renders it, for unsaved values and for drafts, to admins only, never kept.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { expectDealList } from '../helpers/api-schemas.ts';
import { astroBuild } from '../helpers/astro-build.ts';
import { FIXTURES } from '../helpers/server.ts';
import {
  ADMIN,
  MEMBER,
  PROJECT_ROOT,
  call,
  changedFiles,
  expectError,
  expectUnchanged,
  git,
  login,
  repoState,
  startWriteServer,
  takeErrors,
  uniqueWord,
  type JsonResult,
  type WriteServer,
} from '../helpers/writes-harness.ts';

// Inside the project, as the e2e builds are: Astro's server bundle resolves `node_modules` from there.
const E2E_DIR = join(PROJECT_ROOT, '.e2e');
const work = join(E2E_DIR, `drafts-${process.pid}-${Date.now().toString(36)}`);

let env: WriteServer;
let adminCookie: string;
let memberCookie: string;

beforeAll(async () => {
  await mkdir(work, { recursive: true });
  const generatedDir = join(work, 'generated');
  const built = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: '2026-11-21' });
  if (!built.value) throw new Error('fixture does not build');
  await emitCatalog(generatedDir, built.value);
  await astroBuild(generatedDir, join(work, 'dist'));
  // Rendered pages read the site's settings from the generated catalog.
  process.env.GENERATED_DIR = generatedDir;
  env = await startWriteServer([ADMIN, MEMBER], {}, { distDir: join(work, 'dist') });
  adminCookie = await login(env.url, ADMIN);
  memberCookie = await login(env.url, MEMBER);
}, 180_000);

afterAll(async () => {
  await env?.stop();
  delete process.env.GENERATED_DIR;
  await rm(work, { recursive: true, force: true });
  await rmdir(E2E_DIR).catch(() => undefined);
});

afterEach(() => {
  if (env) expect(takeErrors(env.server)).toEqual([]);
});

const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResult> =>
  call(env.url, method, path, { cookie: adminCookie, body, ...(headers ? { headers } : {}) });
const anyone = (path: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${env.url}${path}`, { headers });

/** A new deal's body with a title no other record shares, so any trace of it shows. */
function newDeal(word = uniqueWord()) {
  return { body: { title: `Zeta ${word} credits`, provider: 'Zeta Cloud', category: 'cloud-credits', applicationUrl: 'https://zeta.example/apply' }, slug: `zeta-${word}-credits`, word };
}

/** Every public output that could name a deal, as text: the API (lists, lookup, search), MCP, sitemap, llms files, the deals page and the deal's page and twin. */
async function publicTraces(slug: string, word: string): Promise<Record<string, { status: number; mentions: boolean }>> {
  const mentions = (text: string) => text.includes(slug) || text.toLowerCase().includes(word);
  const outputs: Record<string, { status: number; mentions: boolean }> = {};
  const read = async (name: string, path: string, headers: Record<string, string> = {}) => {
    const response = await anyone(path, headers);
    outputs[name] = { status: response.status, mentions: mentions(await response.text()) };
  };
  // A 404 names the slug asked for: only its status tells.
  const lookup = await anyone(`/api/v1/deals?slug=${slug}`);
  outputs.lookup = { status: lookup.status, mentions: lookup.status === 200 };
  await read('list', '/api/v1/deals?status=all&scope=all');
  await read('search', `/api/v1/deals?search=${word}&status=all&scope=all`);
  await read('sitemap', '/sitemap.xml');
  await read('llms', '/llms.txt');
  await read('llmsFull', '/llms-full.txt');
  await read('dealsPage', '/deals/');
  await read('page', `/deals/${slug}/`);
  await read('twin', `/deals/${slug}/index.md`);
  await read('markdown', `/deals/${slug}/`, { Accept: 'text/markdown' });
  const mcp = await fetch(`${env.url}/api/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_deals', arguments: { query: word, status: 'all', scope: 'all' } } }),
  });
  // The tool's answer repeats the query: the deals it found tell.
  const found = ((await mcp.json()) as { result?: { structuredContent?: { deals?: unknown[] } } }).result?.structuredContent?.deals ?? [];
  outputs.mcp = { status: mcp.status, mentions: mentions(JSON.stringify(found)) };
  return outputs;
}

/** What `publicTraces` shows of a deal nobody may see. */
const ABSENT = {
  lookup: { status: 404, mentions: false },
  list: { status: 200, mentions: false },
  search: { status: 200, mentions: false },
  sitemap: { status: 200, mentions: false },
  llms: { status: 200, mentions: false },
  llmsFull: { status: 200, mentions: false },
  dealsPage: { status: 200, mentions: false },
  page: { status: 404, mentions: false },
  twin: { status: 404, mentions: false },
  markdown: { status: 404, mentions: false },
  mcp: { status: 200, mentions: false },
};

/** The drafts an admin reads. */
async function draftSlugs(): Promise<string[]> {
  const result = await admin('GET', '/api/v1/admin/drafts');
  expect(result.status, result.text).toBe(200);
  return (result.body as { deals: Deal[] }).deals.map((d) => d.slug);
}

describe('a draft', () => {
  test('saved by an admin is one commit with `draft: true`, in no public output, and listed and readable to the admin', async () => {
    const before = repoState(env.repo);
    const total = expectDealList((await call(env.url, 'GET', '/api/v1/deals?status=all&scope=all')).body).stats.total;
    const { body, slug, word } = newDeal();
    const saved = await admin('POST', '/api/v1/deals', { ...body, draft: true });
    expect(saved.status, saved.text).toBe(200);
    expect((saved.body as { deal: Deal }).deal).toMatchObject({ slug, draft: true });
    expect(changedFiles(env.repo)).toEqual([['A', `content/deals/${slug}.md`]]);
    expect(git(env.repo, 'log', '-1', '--format=%s').trim()).toBe(`Add draft deal ${slug}`);
    expect(readFileSync(join(env.contentDir, 'deals', `${slug}.md`), 'utf8')).toMatch(/^draft: true$/m);

    expect(await publicTraces(slug, word)).toEqual(ABSENT);
    expect(expectDealList((await call(env.url, 'GET', '/api/v1/deals?status=all&scope=all')).body).stats.total).toBe(total);

    expect(await draftSlugs()).toContain(slug);
    const one = await admin('GET', `/api/v1/admin/drafts?slug=${slug}`);
    expect(one.status, one.text).toBe(200);
    expect((one.body as { deal: Deal }).deal.title).toBe(body.title);
    expect(one.headers.get('cache-control')).toBe('no-store');
    expect(one.headers.get('etag')).toBeTruthy();
    expect(repoState(env.repo).count).toBe(before.count + 1);
  });

  test('the drafts list is for admins only: 401 without a session (also right after an admin read it), 403 for a member', async () => {
    await admin('GET', '/api/v1/admin/drafts');
    expectError(await call(env.url, 'GET', '/api/v1/admin/drafts'), 401, 'unauthorized');
    expectError(await call(env.url, 'GET', '/api/v1/admin/drafts', { cookie: memberCookie }), 403, 'forbidden');
  });

  test('publishing is one PUT (`draft: false`, with the ETag of the draft): one commit that drops the `draft` line, and the deal is in every public output', async () => {
    const { body, slug, word } = newDeal();
    const saved = await admin('POST', '/api/v1/deals', { ...body, draft: true });
    const { id } = (saved.body as { deal: Deal }).deal;
    const etag = (await admin('GET', `/api/v1/admin/drafts?slug=${slug}`)).headers.get('etag') ?? '';
    const before = repoState(env.repo);

    const published = await admin('PUT', '/api/v1/deals', { id, draft: false }, { 'If-Match': etag });
    expect(published.status, published.text).toBe(200);
    expect((published.body as { deal: Deal }).deal).not.toHaveProperty('draft');
    expect(repoState(env.repo).count).toBe(before.count + 1);
    expect(git(env.repo, 'log', '-1', '--format=%s').trim()).toBe(`Publish deal ${slug}`);
    expect(
      git(env.repo, 'show', '--format=', '--unified=0', 'HEAD')
        .split('\n')
        .filter((l) => /^[-+][^-+]/.test(l)),
    ).toEqual(['-draft: true']);

    const { llms, ...traces } = await publicTraces(slug, word);
    // llms.txt names categories and documents, not each deal.
    expect(llms).toEqual({ status: 200, mentions: false });
    for (const [name, trace] of Object.entries(traces)) expect(trace, name).toEqual({ status: 200, mentions: true });
    expect(await draftSlugs()).not.toContain(slug);
  });

  test('a published deal saved as a draft leaves every public output at once; published again, it is back', async () => {
    const result = await admin('PUT', '/api/v1/deals', { slug: 'heroku-credits', draft: true });
    expect(result.status, result.text).toBe(200);
    expect(git(env.repo, 'log', '-1', '--format=%s').trim()).toBe('Unpublish deal heroku-credits');
    expect(await publicTraces('heroku-credits', 'heroku')).toEqual(ABSENT);
    expect(await draftSlugs()).toContain('heroku-credits');

    expect((await admin('PUT', '/api/v1/deals', { slug: 'heroku-credits', draft: null })).status).toBe(200);
    expect((await anyone('/deals/heroku-credits/')).status).toBe(200);
    expect((await anyone('/api/v1/deals?slug=heroku-credits')).status).toBe(200);
  });

  test('its slug stays taken: a new deal with it is 400 conflict', async () => {
    const { body, slug } = newDeal();
    await admin('POST', '/api/v1/deals', { ...body, draft: true });
    expectError(await admin('POST', '/api/v1/deals', { ...body, slug }), 400, 'conflict');
  });
});

describe('a draft startup (the same write path as deals)', () => {
  test('saved with `draft: true` is in no public output but found by the admin; publishing is one PUT that drops the `draft` line', async () => {
    const word = uniqueWord();
    const slug = `ledger-${word}-labs`;
    const saved = await admin('POST', '/api/v1/admin/startups', { name: `Ledger ${word} Labs`, category: 'saas', draft: true });
    expect(saved.status, saved.text).toBe(200);
    expect(git(env.repo, 'log', '-1', '--format=%s').trim()).toBe(`Add draft startup ${slug}`);
    const publicNames = async () => (await (await anyone(`/api/v1/startups?search=${word}`)).text()).toLowerCase().includes(word);
    expect(await publicNames()).toBe(false);
    expect((await anyone(`/startups/${slug}/`)).status).toBe(404);
    expect(((await admin('GET', '/api/v1/admin/drafts')).body as { startups: { slug: string }[] }).startups.map((s) => s.slug)).toContain(slug);
    // Its slug stays taken, and the admin lookup finds it with the ETag PUT takes.
    expectError(await admin('POST', '/api/v1/admin/startups', { name: 'Another', slug, category: 'saas' }), 400, 'conflict');
    const one = await admin('GET', `/api/v1/admin/startups?slug=${slug}`);
    expect(one.status, one.text).toBe(200);

    const published = await admin('PUT', '/api/v1/admin/startups', { slug, draft: false }, { 'If-Match': one.headers.get('etag') ?? '' });
    expect(published.status, published.text).toBe(200);
    expect(git(env.repo, 'log', '-1', '--format=%s').trim()).toBe(`Publish startup ${slug}`);
    expect(
      git(env.repo, 'show', '--format=', '--unified=0', 'HEAD')
        .split('\n')
        .filter((l) => /^[-+][^-+]/.test(l)),
    ).toEqual(['-draft: true']);
    expect(await publicNames()).toBe(true);
    expect(((await admin('GET', '/api/v1/admin/drafts')).body as { startups: { slug: string }[] }).startups.map((s) => s.slug)).not.toContain(slug);
  });
});

describe('preview', () => {
  /** Check a preview answer and give its HTML. */
  async function expectPreview(result: JsonResult): Promise<string> {
    expect(result.status, result.text.slice(0, 300)).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(result.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    return Promise.resolve(result.text);
  }

  test('of unsaved values (JSON, or a form with the deal as JSON): the rendered page, nothing written', async () => {
    const before = repoState(env.repo);
    const { body, slug } = newDeal();
    const html = await expectPreview(await admin('POST', '/api/v1/admin/preview', body));
    expect(html).toMatch(new RegExp(`<h1>.*${body.title}</h1>`));
    // At the page's own URL, as the site will serve it.
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/deals/${slug}/"`));
    const form = await call(env.url, 'POST', '/api/v1/admin/preview', {
      cookie: adminCookie,
      rawBody: new URLSearchParams({ deal: JSON.stringify(body) }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(await expectPreview(form)).toBe(html);
    expectUnchanged(env.repo, before);
    expect((await anyone(`/api/v1/deals?slug=${slug}`)).status).toBe(404);
  });

  test("of unsaved edits to a stored deal: its fields with the body's over them; the stored deal is unchanged", async () => {
    const html = await expectPreview(await admin('POST', '/api/v1/admin/preview', { id: 'd-aws00001', title: 'AWS Activate, edited' }));
    expect(html).toContain('AWS Activate, edited');
    expect(html).toContain('Amazon Web Services');
    expect(((await call(env.url, 'GET', '/api/v1/deals?slug=aws-activate')).body as { deal: Deal }).deal.title).toBe('AWS Activate Founders');
  });

  test('of a saved draft, and exactly the page the site serves once it is published', async () => {
    const { body, slug } = newDeal();
    const { id } = ((await admin('POST', '/api/v1/deals', { ...body, draft: true })).body as { deal: Deal }).deal;
    const draft = await expectPreview(await admin('GET', `/api/v1/admin/preview?deal=${slug}`));
    expect(draft).toContain(body.title);
    await admin('PUT', '/api/v1/deals', { id, draft: false });
    const page = await anyone(`/deals/${slug}/`);
    expect(page.status).toBe(200);
    const published = await expectPreview(await admin('GET', `/api/v1/admin/preview?deal=${slug}`));
    expect(published).toBe(await page.text());
  });

  test('refuses what saving would refuse, naming the field; an unknown slug is 404', async () => {
    const { body } = newDeal();
    expect(expectError(await admin('POST', '/api/v1/admin/preview', { ...body, category: 'pet-food' }), 400, 'validation_error').error).toContain('category');
    expectError(await admin('POST', '/api/v1/admin/preview', { provider: 'No title' }), 400, 'validation_error');
    // A slug another deal has: saving answers 400 conflict, and so does its preview.
    expectError(await admin('POST', '/api/v1/admin/preview', { ...body, slug: 'aws-activate' }), 400, 'conflict');
    // ?errors=all (the admin form's Preview asks first): every field's problem, the missing title too.
    const listed = await admin('POST', '/api/v1/admin/preview?errors=all', { provider: 'No title', applicationUrl: 'ftp://x.example' });
    expect(listed.status, listed.text).toBe(400);
    expect((listed.body as { fields: Array<{ field: string }> }).fields.map((f) => f.field)).toEqual(expect.arrayContaining(['title', 'category', 'applicationUrl']));
    expectError(await admin('GET', '/api/v1/admin/preview?deal=no-such-deal'), 404, 'not_found');
    expectError(await admin('GET', '/api/v1/admin/preview'), 400, 'validation_error');
  });

  test('is for admins only (401, 403) and from the site itself (403 for another Origin), never served from a cache', async () => {
    const { body } = newDeal();
    await expectPreview(await admin('GET', '/api/v1/admin/preview?deal=aws-activate'));
    expectError(await call(env.url, 'GET', '/api/v1/admin/preview?deal=aws-activate'), 401, 'unauthorized');
    expectError(await call(env.url, 'GET', '/api/v1/admin/preview?deal=aws-activate', { cookie: memberCookie }), 403, 'forbidden');
    expectError(await call(env.url, 'POST', '/api/v1/admin/preview', { body }), 401, 'unauthorized');
    expectError(await call(env.url, 'POST', '/api/v1/admin/preview', { body, cookie: memberCookie }), 403, 'forbidden');
    expectError(await call(env.url, 'POST', '/api/v1/admin/preview', { body, cookie: adminCookie, origin: 'https://evil.example' }), 403, 'forbidden');
  });
});
