/**
 * POST /api/v1/submit-deal on the real server (SPEC "Deal submission", "POST /submit-deal",
 * "Limits"; DESIGN "Submissions are not content"): every field rule, the 201 answer only once
 * the record is durable in the private store (DATA_DIR/submissions, docs/submissions.md) with
 * no git commit at all, duplicate detection, the 5-per-hour budget of accepted submissions per
 * client address, and that submissions are never public.
 *
 * Each test that gets submissions accepted sends them from its own loopback address
 * (127.0.x.y), so the per-address budget of one test never limits another.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectDealList } from '../helpers/api-schemas.ts';
import {
  call,
  callFrom,
  expectError,
  expectUnchanged,
  git,
  PROJECT_ROOT,
  repoState,
  uniqueWord,
  useWriteServer,
  type JsonResult,
  type WriteServer,
} from '../helpers/writes-harness.ts';

let env: WriteServer;

useWriteServer([], (started) => {
  env = started;
});

/** A valid submission with a unique company name (the word is lower-case letters). */
function validSubmission(word = uniqueWord()): Record<string, unknown> {
  return {
    company_name: `Acme ${word}`,
    website_url: 'https://acme.example',
    benefit_description: 'Ten thousand dollars of cloud credits for seed-stage startups.',
    category: 'cloud',
    deal_value: '$10,000 in credits',
    redemption_link: `https://acme.example/startups/${word}`,
  };
}

let nextAddress = 10;
/** A loopback address no other test has used. */
const freshAddress = (): string => `127.0.${nextAddress++}.1`;

/** Submit from an address (default: a fresh one). */
const submit = (body: unknown, from = freshAddress()): Promise<JsonResult> => callFrom(from, env.url, 'POST', '/api/v1/submit-deal', { body, origin: null });

/** The private store's pending folder (docs/submissions.md), outside the content repository. */
const pendingDir = (): string => join(env.dataDir, 'submissions', 'pending');
const submissionFiles = (): string[] => (existsSync(pendingDir()) ? readdirSync(pendingDir()).sort() : []);
const storedRecord = (id: string): Record<string, unknown> => JSON.parse(readFileSync(join(pendingDir(), `${id}.json`), 'utf8')) as Record<string, unknown>;

/** Everything the content repository's history says about its commits (authors, subjects, bodies). */
const historyText = (): string => git(env.repo, 'log', '--all', '--format=%an %ae %cn %ce %s %b');

/** Read a record back the way a restarted server would: a new process opening the store. */
function readInNewProcess(id: string): unknown {
  const script = `import { FileSubmissionStore } from './functions/submissions/file-store.ts';
const store = new FileSubmissionStore(process.argv[1]);
process.stdout.write(JSON.stringify((await store.get(process.argv[2])) ?? null));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, join(env.dataDir, 'submissions'), id], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  return JSON.parse(out) as unknown;
}

/** Assert a 201 `{ success: true, id }` and return the id. */
function expectAccepted(result: JsonResult): string {
  expect(result.status, result.text).toBe(201);
  const body = result.body as { success: boolean; id: string };
  expect(body.success).toBe(true);
  expect(body.id).toMatch(/^sub-[0-9a-f]{16}$/);
  return body.id;
}

describe('field rules: every violation is 400 validation_error naming the field, and nothing is stored', () => {
  const long = (n: number, prefix = ''): string => prefix + 'x'.repeat(n - prefix.length);
  const cases: Array<{ name: string; patch: Record<string, unknown>; field: string }> = [
    { name: 'company_name of 1 character', patch: { company_name: 'A' }, field: 'company_name' },
    { name: 'company_name of 121 characters', patch: { company_name: long(121) }, field: 'company_name' },
    { name: 'company_name not a string', patch: { company_name: 42 }, field: 'company_name' },
    { name: 'website_url not a URL', patch: { website_url: 'not a url' }, field: 'website_url' },
    { name: 'website_url javascript:', patch: { website_url: 'javascript:alert(1)' }, field: 'website_url' },
    { name: 'website_url relative', patch: { website_url: '/acme' }, field: 'website_url' },
    { name: 'benefit_description of 9 characters', patch: { benefit_description: 'Too short' }, field: 'benefit_description' },
    { name: 'benefit_description of 2001 characters', patch: { benefit_description: long(2001) }, field: 'benefit_description' },
    { name: 'category outside the enum', patch: { category: 'food' }, field: 'category' },
    { name: 'category as a deal category slug', patch: { category: 'cloud-credits' }, field: 'category' },
    { name: 'deal_value of 101 characters', patch: { deal_value: long(101) }, field: 'deal_value' },
    { name: 'redemption_method outside the enum', patch: { redemption_method: 'email' }, field: 'redemption_method' },
    { name: 'redemption_link of 301 characters', patch: { redemption_link: long(301, 'https://acme.example/') }, field: 'redemption_link' },
    { name: 'redemption_link not a URL with the default method (link)', patch: { redemption_link: 'SAVE20' }, field: 'redemption_link' },
    { name: 'redemption_link not a URL with method link', patch: { redemption_method: 'link', redemption_link: 'SAVE20' }, field: 'redemption_link' },
    { name: 'redemption_link javascript: with method link', patch: { redemption_method: 'link', redemption_link: 'javascript:alert(1)' }, field: 'redemption_link' },
    { name: 'redemption_link empty with method code', patch: { redemption_method: 'code', redemption_link: '' }, field: 'redemption_link' },
    { name: 'redemption_link of 301 characters with method code', patch: { redemption_method: 'code', redemption_link: long(301) }, field: 'redemption_link' },
    { name: 'is_exclusive not a boolean', patch: { is_exclusive: 'yes' }, field: 'is_exclusive' },
    { name: 'submitter_email not an e-mail', patch: { submitter_email: 'not-an-email' }, field: 'submitter_email' },
    { name: 'logo_url not a URL', patch: { logo_url: 'not a url' }, field: 'logo_url' },
    ...['company_name', 'website_url', 'benefit_description', 'category', 'deal_value', 'redemption_link'].map((field) => ({
      name: `missing ${field}`,
      patch: { [field]: undefined },
      field,
    })),
  ];

  for (const { name, patch, field } of cases) {
    test(name, async () => {
      const before = repoState(env.repo);
      const files = submissionFiles();
      const body = JSON.parse(JSON.stringify({ ...validSubmission(), ...patch })) as unknown;
      const error = expectError(await submit(body, '127.0.1.1'), 400, 'validation_error');
      expect(error.error).toMatch(new RegExp(`\\b${field}\\b`));
      expectUnchanged(env.repo, before);
      expect(submissionFiles()).toEqual(files);
    });
  }

  test('a body that is not a JSON object is 400; malformed JSON is 400 bad_request', async () => {
    const before = repoState(env.repo);
    expectError(await submit([validSubmission()], '127.0.1.1'), 400, 'validation_error');
    expectError(await submit('a string', '127.0.1.1'), 400, 'validation_error');
    expectError(await callFrom('127.0.1.1', env.url, 'POST', '/api/v1/submit-deal', { rawBody: '{"company_name": "Acme",' }), 400, 'bad_request');
    expectUnchanged(env.repo, before);
  });
});

describe('accepted submissions', () => {
  test('201 { success, id } once the record is durable in DATA_DIR/submissions/pending/<id>.json, holding the fields and pending status', async () => {
    const body = { ...validSubmission(), submitter_email: 'sam@founders.example', is_exclusive: true, logo_url: 'https://acme.example/logo.png' };
    const result = await submit(body);
    const id = expectAccepted(result);
    expect(Object.keys(result.body as object).sort()).toEqual(['id', 'success']);
    const record = storedRecord(id);
    expect(record).toMatchObject({ ...body, id, status: 'pending', redemption_method: 'link' });
    expect(Math.abs(Date.parse(String(record.submittedAt)) - Date.now())).toBeLessThan(60_000);
    // What a restarted server reads: the same record, from a process that never saw the request.
    expect(readInNewProcess(id)).toEqual(record);
    // Written atomically: no temporary file is left beside it.
    expect(submissionFiles().filter((name) => !/^sub-[0-9a-f]{16}\.json$/.test(name))).toEqual([]);
  });

  test('no git commit at all: the content history holds neither the e-mail nor the company, and the work tree is clean', async () => {
    const before = repoState(env.repo);
    const word = uniqueWord('zzpriv');
    const body = { ...validSubmission(word), company_name: `Private ${word} Inc`, submitter_email: `${word}@founders.example` };
    const id = expectAccepted(await submit(body));
    expectUnchanged(env.repo, before);
    const history = historyText();
    expect(history).not.toContain(`${word}@founders.example`);
    expect(history).not.toContain(word);
    expect(history).not.toContain(id);
    expect(existsSync(join(env.contentDir, 'submissions'))).toBe(false);
  });

  test('boundary values are accepted: 2 and 120 characters of company_name, 10 and 2000 of benefit_description, 100 of deal_value, 300 of redemption_link', async () => {
    const word = uniqueWord();
    const low = { ...validSubmission(), company_name: 'Ab', benefit_description: '0123456789', deal_value: 'v'.repeat(100), redemption_link: `https://a.example/${'p'.repeat(300 - 18)}` };
    expect((low.redemption_link as string).length).toBe(300);
    expectAccepted(await submit(low));
    const high = { ...validSubmission(word), company_name: `Acme ${word} ${'n'.repeat(120 - 6 - word.length)}`, benefit_description: 'b'.repeat(2000) };
    expect((high.company_name as string).length).toBe(120);
    expectAccepted(await submit(high));
  });

  test('with redemption_method code, any coupon code is a valid redemption_link and is stored as such', async () => {
    const body = { ...validSubmission(), redemption_method: 'code', redemption_link: 'SAVE20 for founders' };
    const id = expectAccepted(await submit(body));
    expect(storedRecord(id)).toMatchObject({ redemption_method: 'code', redemption_link: 'SAVE20 for founders', status: 'pending' });
  });

  test('the same company and redemption_link again within a day answers the same id, and nothing new is stored', async () => {
    const body = validSubmission();
    const first = expectAccepted(await submit(body));
    const before = repoState(env.repo);
    const files = submissionFiles();
    const again = await submit({ ...body, benefit_description: 'Worded a little differently this time.' });
    expect(expectAccepted(again)).toBe(first);
    expect(again.body).toEqual({ success: true, id: first, duplicate: true });
    expectUnchanged(env.repo, before);
    expect(submissionFiles()).toEqual(files);
  });

  test('fields a submitter may not set (status, id, submittedAt) are ignored: accepted, and the stored record is the server\'s own', async () => {
    const word = uniqueWord();
    const result = await submit({ ...validSubmission(word), status: 'approved', id: 'sub-0000000000000000', submittedAt: '2000-01-01T00:00:00.000Z', dealId: 'd-aws00001' });
    const id = expectAccepted(result);
    const record = storedRecord(id);
    expect({ id: record.id, status: record.status, dealId: record.dealId, submittedAtIsRecent: Date.parse(String(record.submittedAt)) > Date.now() - 60_000 }).toEqual({
      id,
      status: 'pending',
      dealId: undefined,
      submittedAtIsRecent: true,
    });
  });

  test('a submission is never public: not in any deal list, search, single lookup or startups answer', async () => {
    const word = uniqueWord('zz');
    const email = `${word}@submitter.example`;
    const id = expectAccepted(await submit({ ...validSubmission(word), submitter_email: email, deal_value: `${word} value` }));
    const reads = [
      '/api/v1/deals',
      '/api/v1/deals?status=all&scope=all&limit=5000',
      `/api/v1/deals?search=${word}&status=all&scope=all`,
      `/api/v1/deals?search=acme&status=all&scope=all`,
      '/api/v1/startups',
      `/api/v1/startups?search=${word}`,
      '/api/deals?status=all&scope=all',
    ];
    for (const path of reads) {
      const result = await call(env.url, 'GET', path);
      expect(result.status, path).toBe(200);
      expect(result.text, path).not.toContain(word);
      expect(result.text, path).not.toContain(id);
      expect(result.text, path).not.toContain(email);
    }
    const search = expectDealList((await call(env.url, 'GET', `/api/v1/deals?search=${word}&status=all&scope=all`)).body);
    expect(search.count).toBe(0);
    expect((await call(env.url, 'GET', `/api/v1/deals?slug=${id}`)).status).toBe(404);
    expect((await call(env.url, 'GET', `/api/v1/deals?id=${id}`)).status).toBe(404);
    expect((await call(env.url, 'GET', '/api/v1/submissions')).status).toBe(404);
    expectError(await call(env.url, 'GET', '/api/v1/admin/submissions'), 401, 'unauthorized');
    for (const path of [`/content/submissions/${id}.md`, `/submissions/${id}.md`, `/submissions/${id}`]) {
      const result = await call(env.url, 'GET', path);
      expect(result.status, path).toBe(404);
      expect(result.text, path).not.toContain(email);
    }
  });
});

describe('methods', () => {
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
    test(`${method} is 405 method_not_allowed with Allow naming POST`, async () => {
      const result = await call(env.url, method, '/api/v1/submit-deal', method === 'GET' ? {} : { body: validSubmission() });
      expectError(result, 405, 'method_not_allowed');
      const allow = (result.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow).toContain('POST');
      expect(allow).not.toContain(method);
    });
  }
});

describe('rate limit: 5 accepted submissions per client address per hour', () => {
  test('the 6th accepted submission is 429 rate_limited with Retry-After and RateLimit-Policy; invalid ones do not use up the 5', async () => {
    const from = freshAddress();
    for (let i = 0; i < 4; i++) expectError(await submit({ ...validSubmission(), category: 'food' }, from), 400, 'validation_error');
    for (let i = 0; i < 5; i++) {
      const accepted = await submit(validSubmission(), from);
      expectAccepted(accepted);
      expect(accepted.headers.get('ratelimit-policy')).toBe('"submissions";q=5;w=3600');
    }
    const before = repoState(env.repo);
    const files = submissionFiles();
    const limited = await submit(validSubmission(), from);
    expectError(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(limited.headers.get('ratelimit-policy')).toBe('"submissions";q=5;w=3600');
    expectUnchanged(env.repo, before);
    expect(submissionFiles()).toEqual(files);
    // A forged X-Forwarded-For does not buy a new budget (DESIGN: honoured only behind a trusted proxy).
    const spoofed = await callFrom(from, env.url, 'POST', '/api/v1/submit-deal', { body: validSubmission(), origin: null, headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expectError(spoofed, 429, 'rate_limited');
    expectUnchanged(env.repo, before);
    // Another client still has its whole budget.
    expectAccepted(await submit(validSubmission(), freshAddress()));
  });
});
