/**
 * Links through the real server (issue 14, item 9): the admin deal writes and the public
 * submission (JSON and form) apply the one link rule (src/schemas/fields.ts `normaliseHttpUrl`).
 * A fixable link is stored normalised and every answer holding it validates against the
 * published /openapi.json (ajv-formats' full `uri` format); a refused one is `400
 * validation_error` naming the field, with nothing written. And `npm run check` names the file,
 * line and field of a refused link in content.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import matter from 'gray-matter';
import { beforeAll, describe, expect, test } from 'vitest';
import { parseJson, strictAjv } from '../helpers/agents-support.ts';
import { FIXTURES } from '../helpers/server.ts';
import { ADMIN, PROJECT_ROOT, call, callFrom, expectError, expectUnchanged, login, repoState, uniqueWord, useWriteServer, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';

const DOC_ID = 'https://openapi.test/openapi.json';

let env: WriteServer;
let cookie: string;

useWriteServer([ADMIN], async (started) => {
  env = started;
  cookie = await login(env.url, ADMIN);
});

let ajv: Ajv2020;
beforeAll(async () => {
  const doc = parseJson(await (await fetch(`${env.url}/openapi.json`)).text()) as Record<string, unknown>;
  ajv = strictAjv(Object.keys(doc).filter((k) => k !== '$id'));
  ajv.addSchema({ ...doc, $id: DOC_ID });
});

const validators = new Map<string, ReturnType<Ajv2020['compile']>>();

/** Assert `value` is valid against a component schema of the published document. */
function expectComponent(name: string, value: unknown): void {
  let validate = validators.get(name);
  if (!validate) validators.set(name, (validate = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${name}` })));
  const ok = validate(value);
  expect(ok, `${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`).toBe(true);
}

const admin = (method: string, path: string, body?: unknown): Promise<JsonResult> => call(env.url, method, path, { cookie, body });

/** A new deal with a unique title and the given links. */
function newDeal(links: Record<string, string>): { title: string; provider: string; category: string; applicationUrl: string } {
  return { title: `Links ${uniqueWord()} credits`, provider: 'Links Co', category: 'cloud-credits', applicationUrl: 'https://links.example/apply', ...links };
}

/** The deal of a write's answer, after checking it against the published Deal schema. */
function answeredDeal(result: JsonResult): Record<string, unknown> {
  expect(result.status, result.text).toBe(200);
  const deal = (result.body as { deal: Record<string, unknown> }).deal;
  expectComponent('Deal', deal);
  return deal;
}

/** The stored front matter of a deal's file in the content repository. */
async function fileLinks(slug: string): Promise<Record<string, unknown>> {
  return matter(await readFile(join(env.contentDir, 'deals', `${slug}.md`), 'utf8')).data;
}

/** The fuzzer's three (issue 14, item 9) and a non-ASCII host and path: each stored normalised. */
const FIXABLE: ReadonlyArray<readonly [string, string]> = [
  ['https://example.com/a b', 'https://example.com/a%20b'],
  ['https://Ï', 'https://xn--gda'],
  ['HTTPS://EXAMPLE.COM', 'https://example.com'],
  ['http://例え.jp/パス', 'http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'],
  ['https://example.com/a%20b', 'https://example.com/a%20b'],
];

/** Refused, with a word of the reason the error gives. */
const REFUSED: ReadonlyArray<readonly [string, RegExp]> = [
  ['ftp://x', /absolute http:\/\/ or https:\/\/ URL/],
  ['javascript:alert(1)', /absolute http:\/\/ or https:\/\/ URL/],
  ['//example.com', /absolute http:\/\/ or https:\/\/ URL/],
  ['https://user:pw@example.com', /without a user name or password/],
  ['https://exa mple.com', /valid host name/],
];

const LINK_FIELDS = ['applicationUrl', 'providerWebsite', 'logoUrl'] as const;

describe('admin deal writes', () => {
  test.each(FIXABLE)('POST with %j in every link field stores %j, and the answers validate against the published Deal schema', async (sent, stored) => {
    const input = newDeal({ applicationUrl: sent, providerWebsite: sent, logoUrl: sent });
    const deal = answeredDeal(await admin('POST', '/api/v1/deals', input));
    expect(deal).toMatchObject({ applicationUrl: stored, providerWebsite: stored, logoUrl: stored });
    // The file holds the stored form, and a read answers it too.
    expect(await fileLinks(String(deal.slug))).toMatchObject({ applicationUrl: stored, providerWebsite: stored, logoUrl: stored });
    const read = await call(env.url, 'GET', `/api/v1/deals?slug=${String(deal.slug)}`);
    expect(answeredDeal(read)).toEqual(deal);
  });

  test('PUT and a bulk POST normalise too', async () => {
    const created = answeredDeal(await admin('POST', '/api/v1/deals', newDeal({})));
    const updated = answeredDeal(await admin('PUT', '/api/v1/deals', { id: created.id, logoUrl: 'https://Ï/logo b.png' }));
    expect(updated.logoUrl).toBe('https://xn--gda/logo%20b.png');
    const bulk = newDeal({ providerWebsite: 'HTTPS://EXAMPLE.COM' });
    const result = await admin('POST', '/api/v1/deals', { deals: [bulk] });
    expect(result.status, result.text).toBe(200);
    const [slug] = (result.body as { slugs: string[] }).slugs;
    expect(answeredDeal(await call(env.url, 'GET', `/api/v1/deals?slug=${slug}`)).providerWebsite).toBe('https://example.com');
  });

  for (const field of LINK_FIELDS) {
    test.each(REFUSED)(`POST with ${field} %j: 400 validation_error naming the field, nothing written`, async (sent, why) => {
      const before = repoState(env.repo);
      const error = expectError(await admin('POST', '/api/v1/deals', newDeal({ [field]: sent })), 400, 'validation_error');
      expect(error.error).toMatch(new RegExp(`^${field}: `));
      expect(error.error).toMatch(why);
      expectUnchanged(env.repo, before);
    });
  }

  test('PUT and a bulk POST refuse a bad link the same way', async () => {
    const created = answeredDeal(await admin('POST', '/api/v1/deals', newDeal({})));
    const before = repoState(env.repo);
    const put = expectError(await admin('PUT', '/api/v1/deals', { id: created.id, providerWebsite: 'https://user:pw@example.com' }), 400, 'validation_error');
    expect(put.error).toMatch(/^providerWebsite: .*without a user name or password/);
    const bulk = expectError(await admin('POST', '/api/v1/deals', { deals: [newDeal({}), newDeal({ logoUrl: 'javascript:alert(1)' })] }), 400, 'validation_error');
    expect(bulk.error).toMatch(/logoUrl/);
    expectUnchanged(env.repo, before);
  });
});

describe('POST /api/v1/submit-deal', () => {
  let nextAddress = 1;
  const from = (): string => `127.0.77.${nextAddress++}`;

  function submission(links: Record<string, string> = {}): Record<string, string> {
    const word = uniqueWord();
    return {
      company_name: `Links ${word}`,
      website_url: `https://${word}.example`,
      benefit_description: 'Ten percent off the first year for startups.',
      category: 'saas',
      deal_value: '10% off',
      redemption_link: `https://${word}.example/deal`,
      ...links,
    };
  }

  const storedRecord = async (id: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(join(env.dataDir, 'submissions', 'pending', `${id}.json`), 'utf8')) as Record<string, unknown>;

  /** Post as a browser form without JavaScript: the redirect's path and query. */
  async function postForm(fields: Record<string, string>): Promise<URL> {
    const answer = await callFrom(from(), env.url, 'POST', '/api/v1/submit-deal', {
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
    });
    expect(answer.status, answer.text).toBe(303);
    return new URL(answer.headers.get('location') ?? '', env.url);
  }

  test.each(FIXABLE)('JSON: %j in website_url, logo_url and redemption_link is stored as %j', async (sent, stored) => {
    const body = submission({ website_url: sent, logo_url: sent, redemption_link: sent });
    const result = await callFrom(from(), env.url, 'POST', '/api/v1/submit-deal', { body, origin: null });
    expect(result.status, result.text).toBe(201);
    const record = await storedRecord((result.body as { id: string }).id);
    expect(record).toMatchObject({ website_url: stored, logo_url: stored, redemption_link: stored });
    // What was stored is a valid request by the published schema, links and all.
    const { website_url, logo_url, redemption_link } = record;
    expectComponent('DealSubmission', { ...body, website_url, logo_url, redemption_link });
  });

  test('a coupon code (redemption_method code) is kept as typed', async () => {
    const result = await callFrom(from(), env.url, 'POST', '/api/v1/submit-deal', { body: submission({ redemption_method: 'code', redemption_link: 'SAVE 20 | now' }), origin: null });
    expect(result.status, result.text).toBe(201);
    expect(await storedRecord((result.body as { id: string }).id)).toMatchObject({ redemption_link: 'SAVE 20 | now' });
  });

  for (const field of ['website_url', 'logo_url', 'redemption_link']) {
    test.each(REFUSED)(`JSON: ${field} %j is 400 validation_error naming the field`, async (sent, why) => {
      const error = expectError(await callFrom(from(), env.url, 'POST', '/api/v1/submit-deal', { body: submission({ [field]: sent }), origin: null }), 400, 'validation_error');
      expect(error.error).toMatch(new RegExp(`^${field} must be `));
      expect(error.error).toMatch(why);
    });
  }

  test('a form post: a fixable link is stored normalised, a refused one goes back to the form with invalid_url and the field', async () => {
    const accepted = await postForm(submission({ website_url: 'HTTPS://Form.EXAMPLE', logo_url: 'https://form.example/logo b.png' }));
    expect(accepted.pathname).toBe('/submit/thanks/');
    expect(await storedRecord(accepted.searchParams.get('id') ?? '')).toMatchObject({ website_url: 'https://form.example', logo_url: 'https://form.example/logo%20b.png' });
    for (const field of ['website_url', 'logo_url', 'redemption_link']) {
      const refused = await postForm(submission({ [field]: 'https://user:pw@example.com' }));
      expect(refused.pathname).toBe('/submit/');
      expect(Object.fromEntries(refused.searchParams)).toEqual({ error: 'invalid_url', field });
    }
  });

  test('an approved submission with normalised links publishes a deal that validates against the published Deal schema', async () => {
    const body = submission({ website_url: 'HTTPS://APPROVE.EXAMPLE', redemption_link: 'http://例え.jp/パス', logo_url: 'https://Ï/a b.png' });
    const sent = await callFrom(from(), env.url, 'POST', '/api/v1/submit-deal', { body, origin: null });
    expect(sent.status, sent.text).toBe(201);
    const approved = await admin('POST', '/api/v1/admin/submissions/approve', { id: (sent.body as { id: string }).id });
    expect(answeredDeal(approved)).toMatchObject({ applicationUrl: 'http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9', providerWebsite: 'https://approve.example', logoUrl: 'https://xn--gda/a%20b.png' });
  });
});

describe('npm run check', () => {
  test('a refused link fails with file, line and field; a fixable one passes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'links-check-'));
    try {
      await cp(join(FIXTURES, 'valid'), join(dir, 'links'), { recursive: true });
      const deal = (id: string, url: string) => `---\nid: ${id}\ntitle: Links ${id}\nprovider: Links Co\ncategory: cloud-credits\nstatus: active\napplicationUrl: ${url}\n---\nLinks.\n`;
      await writeFile(join(dir, 'links', 'deals', 'fixable.md'), deal('d-links101', 'HTTPS://EXAMPLE.COM/a b'));
      const check = () => spawnSync(process.execPath, ['scripts/check.ts', join(dir, 'links')], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 30_000 });
      const passing = check();
      expect(passing.stdout).toBe('checked 11 deals and 6 startups: 0 error(s), 0 warning(s)\n');
      expect(passing.status).toBe(0);
      await writeFile(join(dir, 'links', 'deals', 'refused.md'), deal('d-links102', 'https://user:pw@example.com'));
      const failing = check();
      expect(failing.stdout).toBe(
        'links/deals/refused.md:7 applicationUrl: expected an absolute http:// or https:// URL without a user name or password (`user:pw@`), got `https://user:pw@example.com`\n' +
          'checked 12 deals and 6 startups: 1 error(s), 0 warning(s)\n',
      );
      expect(failing.status).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
