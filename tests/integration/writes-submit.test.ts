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
import * as z from 'zod';
import { ErrorBodySchema, expectDealList } from '../helpers/api-schemas.ts';
import { call, callFrom, expectError, expectUnchanged, git, PROJECT_ROOT, repoState, uniqueWord, useWriteServer, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';

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

  test("fields a submitter may not set (status, id, submittedAt) are ignored: accepted, and the stored record is the server's own", async () => {
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

describe('a form post is answered exactly as the equivalent JSON post (issue 14, item 9)', () => {
  type Fields = Record<string, string | undefined>;

  /** The fields of a form post as its body and Content-Type: urlencoded, or multipart as a browser's FormData makes it. */
  async function formBody(fields: Record<string, string>, encoding: 'urlencoded' | 'multipart'): Promise<{ body: string; type: string }> {
    if (encoding === 'urlencoded') return { body: new URLSearchParams(fields).toString(), type: 'application/x-www-form-urlencoded' };
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    return { body: await encoded.text(), type: encoded.headers.get('content-type') ?? '' };
  }

  /** A valid submission as form text with `change` applied (`undefined` leaves a field out), and a link of its own (no duplicate). */
  function formFields(change: Fields): Record<string, string> {
    const base: Fields = { ...(validSubmission() as Record<string, string>), ...change };
    return Object.fromEntries(Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined));
  }

  /** What a stored record says beyond its identity (id, date, and the link each post makes unique). */
  function storedFields(result: JsonResult): Record<string, unknown> {
    const { id, submittedAt, redemption_link, ...rest } = storedRecord(expectAccepted(result));
    expect([typeof id, typeof submittedAt, typeof redemption_link]).toEqual(['string', 'string', 'string']);
    return rest;
  }

  /**
   * Post `form` (as form text) and `json` (the same submission as JSON) from fresh addresses: the
   * same status, and the same stored fields or the same error.
   */
  async function expectSameAnswer(form: Fields, json: Record<string, unknown>, encoding: 'urlencoded' | 'multipart' = 'urlencoded'): Promise<JsonResult> {
    const fields = formFields(form);
    const encoded = await formBody(fields, encoding);
    const asForm = await callFrom(freshAddress(), env.url, 'POST', '/api/v1/submit-deal', {
      rawBody: encoded.body,
      origin: null,
      headers: { 'Content-Type': encoded.type, Accept: 'application/json' },
    });
    const asJson = await submit({ ...fields, ...json, redemption_link: `https://acme.example/startups/${uniqueWord()}` });
    expect(asForm.status, asForm.text).toBe(asJson.status);
    if (asJson.status === 201) {
      expect(storedFields(asForm)).toEqual(storedFields(asJson));
    } else {
      const { timestamp: formTime, ...formError } = asForm.body as Record<string, unknown>;
      const { timestamp: jsonTime, ...jsonError } = asJson.body as Record<string, unknown>;
      expect([typeof formTime, typeof jsonTime]).toEqual(['string', 'string']);
      expect(formError).toEqual(jsonError);
    }
    return asForm;
  }

  test('company_name=on is the company "on", not a boolean', async () => {
    const answer = await expectSameAnswer({ company_name: 'on' }, { company_name: 'on' });
    expect(storedRecord((answer.body as { id: string }).id).company_name).toBe('on');
  });

  test.each(['true', 'false', 'yes', 'no', '1', '0', 'off'])('a text field keeps the text %j', async (text) => {
    const answer = await expectSameAnswer({ deal_value: text, submitter_email: `${text}@founders.example` }, { deal_value: text, submitter_email: `${text}@founders.example` });
    expect(storedRecord((answer.body as { id: string }).id)).toMatchObject({ deal_value: text });
  });

  test.each([
    ['1', true],
    ['on', true],
    ['true', true],
    ['yes', true],
    ['YES', true],
    ['0', false],
    ['off', false],
    ['false', false],
    ['no', false],
  ])('is_exclusive=%s is the boolean %s', async (text, value) => {
    const answer = await expectSameAnswer({ is_exclusive: text }, { is_exclusive: value });
    expect(storedRecord((answer.body as { id: string }).id).is_exclusive).toBe(value);
  });

  test('is_exclusive absent (an unchecked box) is absent, as in JSON: the schema gives it no default', async () => {
    const answer = await expectSameAnswer({ is_exclusive: undefined }, {});
    expect('is_exclusive' in storedRecord((answer.body as { id: string }).id)).toBe(false);
  });

  test('is_exclusive=maybe is refused as JSON "maybe" is: 400 naming the field', async () => {
    const answer = await expectSameAnswer({ is_exclusive: 'maybe' }, { is_exclusive: 'maybe' });
    expect(expectError(answer, 400, 'validation_error').error).toBe('is_exclusive must be of type boolean');
  });

  test('an empty deal_value (required, no minimum length) is accepted and stored empty', async () => {
    const answer = await expectSameAnswer({ deal_value: '' }, { deal_value: '' });
    expect(storedRecord((answer.body as { id: string }).id).deal_value).toBe('');
  });

  test('an empty required field with a minimum length is refused by that rule, as in JSON', async () => {
    const answer = await expectSameAnswer({ company_name: '' }, { company_name: '' });
    expect(expectError(answer, 400, 'validation_error').error).toBe('company_name must be at least 2 characters');
  });

  test('text is trimmed in JSON and forms alike: "  Acme  " is stored as "Acme", a field of spaces is empty', async () => {
    const answer = await expectSameAnswer({ company_name: '  Trimmed Co  ', submitter_email: '   ' }, { company_name: '  Trimmed Co  ', submitter_email: '   ' });
    const record = storedRecord((answer.body as { id: string }).id);
    expect(record.company_name).toBe('Trimmed Co');
    expect('submitter_email' in record).toBe(false);
    const spaces = await expectSameAnswer({ company_name: '    ' }, { company_name: '    ' });
    expect(expectError(spaces, 400, 'validation_error').error).toBe('company_name must be at least 2 characters');
  });

  test('empty optional fields (e-mail, logo, checkbox, redemption method) are left out in JSON and forms alike: defaults apply', async () => {
    const empty = { submitter_email: '', logo_url: '', is_exclusive: '', redemption_method: '' };
    const answer = await expectSameAnswer(empty, empty);
    const record = storedRecord((answer.body as { id: string }).id);
    expect(record.redemption_method).toBe('link');
    for (const field of ['submitter_email', 'logo_url', 'is_exclusive']) expect(field in record, field).toBe(false);
  });

  test('multipart/form-data is read the same way', async () => {
    const answer = await expectSameAnswer({ company_name: 'on', is_exclusive: '1', deal_value: '', logo_url: '' }, { company_name: 'on', is_exclusive: true, deal_value: '' }, 'multipart');
    expect(storedRecord((answer.body as { id: string }).id)).toMatchObject({ company_name: 'on', is_exclusive: true, deal_value: '' });
  });

  test('a multipart post with a file, or without a readable body, is 400 bad_request and stores nothing', async () => {
    const files = submissionFiles();
    const form = new FormData();
    for (const [name, value] of Object.entries(formFields({}))) form.append(name, value);
    form.append('logo_url', new Blob(['\x89PNG']), 'logo.png');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const withFile = await callFrom(freshAddress(), env.url, 'POST', '/api/v1/submit-deal', {
      rawBody: await encoded.text(),
      origin: null,
      headers: { 'Content-Type': encoded.headers.get('content-type') ?? '' },
    });
    expectError(withFile, 400, 'bad_request');
    const garbled = await callFrom(freshAddress(), env.url, 'POST', '/api/v1/submit-deal', { rawBody: 'not multipart', origin: null, headers: { 'Content-Type': 'multipart/form-data; boundary=x' } });
    expectError(garbled, 400, 'bad_request');
    expect(submissionFiles()).toEqual(files);
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

describe('site_category: the deal category of this site (additive, issue 15)', () => {
  const SITE_CATEGORIES = ['cloud-credits', 'saas-discounts', 'accelerators'];

  test('optional: a deal or program category of the catalog is accepted and stored with the submission; leaving it out changes nothing', async () => {
    for (const category of ['saas-discounts', 'accelerators']) {
      const id = expectAccepted(await submit({ ...validSubmission(), site_category: category }));
      expect(storedRecord(id).site_category).toBe(category);
      // SPEC's category is kept as sent, beside it.
      expect(storedRecord(id).category).toBe('cloud');
    }
    expect(storedRecord(expectAccepted(await submit(validSubmission())))).not.toHaveProperty('site_category');
  });

  test.each([
    ['a slug the catalog does not have', 'crypto'],
    ['a SPEC category, which is not a site category', 'saas'],
    ['a startup category', 'ecommerce'],
    ['not text', 42],
    ['text longer than any slug', 'x'.repeat(121)],
  ])('%s is 400 validation_error naming site_category; nothing stored', async (_name, value) => {
    const files = submissionFiles();
    const error = expectError(await submit({ ...validSubmission(), site_category: value }, '127.0.1.2'), 400, 'validation_error');
    expect(error.error).toMatch(/^site_category /);
    if (typeof value === 'string' && value.length < 100) {
      // What is allowed, from the live catalog.
      expect(error.error).toBe(`site_category must be one of ${SITE_CATEGORIES.join(', ')}`);
      expect(error.hint).toContain('/api/v1/categories');
    }
    expect(submissionFiles()).toEqual(files);
  });

  test('an empty site_category is left out, like every empty optional field', async () => {
    expect(storedRecord(expectAccepted(await submit({ ...validSubmission(), site_category: '  ' })))).not.toHaveProperty('site_category');
  });

  test('in a form post to the API too', async () => {
    const fields = { ...(validSubmission() as Record<string, string>), site_category: 'accelerators' };
    const answer = await callFrom(freshAddress(), env.url, 'POST', '/api/v1/submit-deal', {
      rawBody: new URLSearchParams(fields).toString(),
      origin: null,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    });
    expect(storedRecord(expectAccepted(answer)).site_category).toBe('accelerators');
  });
});

describe('every problem at once: `fields` with ?errors=all (additive, issue 15)', () => {
  /** The error object with its optional `fields`: SPEC's keys and that one only. */
  const ListedErrorSchema = z.strictObject({
    ...ErrorBodySchema.shape,
    fields: z.array(z.strictObject({ field: z.string(), message: z.string().min(1) })).min(1),
  });
  const submitListed = (body: unknown, from = '127.0.1.3'): Promise<JsonResult> => callFrom(from, env.url, 'POST', '/api/v1/submit-deal?errors=all', { body, origin: null });

  test("every problem, one per field; `error` and `hint` as without the parameter, which answers SPEC's error object alone", async () => {
    const body = { ...validSubmission(), company_name: 'A', benefit_description: 'x'.repeat(2001), category: 'food', submitter_email: 'nobody', site_category: 'crypto' };
    const files = submissionFiles();
    const listed = await submitListed(body);
    expect(listed.status, listed.text).toBe(400);
    const answer = ListedErrorSchema.parse(listed.body);
    expect(answer.code).toBe('validation_error');
    expect(answer.fields).toEqual([
      { field: 'company_name', message: 'company_name must be at least 2 characters' },
      { field: 'benefit_description', message: 'benefit_description must be at most 2000 characters' },
      { field: 'category', message: 'category must be one of cloud, saas, marketing, hiring, legal, other' },
      { field: 'submitter_email', message: 'submitter_email must be a valid email address' },
      { field: 'site_category', message: 'site_category must be one of cloud-credits, saas-discounts, accelerators' },
    ]);
    // The first is the one `error` names, worded as it always was; without ?errors=all, exactly SPEC's keys.
    const plain = expectError(await submit(body, '127.0.1.3'), 400, 'validation_error');
    expect(answer.error).toBe(plain.error);
    expect(answer.fields[0]?.message).toBe(plain.error);
    expect(answer.hint).toBe(plain.hint);
    expect(Object.keys(plain).sort()).toEqual(['code', 'error', 'hint', 'success', 'timestamp']);
    expect(submissionFiles()).toEqual(files);
  });

  test('refused links first (as `error` always named them), then the other fields; one entry per field', async () => {
    const body = { ...validSubmission(), website_url: 'javascript:alert(1)', logo_url: 'https://user:pw@example.com', redemption_link: 'x'.repeat(301), deal_value: 'y'.repeat(101) };
    const answer = ListedErrorSchema.parse((await submitListed(body)).body);
    expect(answer.fields.map((f) => f.field)).toEqual(['website_url', 'logo_url', 'redemption_link', 'deal_value']);
    expect(answer.error).toBe(answer.fields[0]?.message);
    expect(answer.error).toMatch(/^website_url must be an absolute http:\/\/ or https:\/\/ URL/);
    expect(new Set(answer.fields.map((f) => f.field)).size).toBe(answer.fields.length);
  });

  test('an empty object: every required field is named', async () => {
    const answer = ListedErrorSchema.parse((await submitListed({})).body);
    expect(answer.fields.map((f) => f.field).sort()).toEqual(['benefit_description', 'category', 'company_name', 'deal_value', 'redemption_link', 'website_url']);
    for (const { field, message } of answer.fields) expect(message).toBe(`${field} is required`);
  });

  test("a body that is no object has no field to list: SPEC's error object alone", async () => {
    const answer = expectError(await submitListed(['a list']), 400, 'validation_error');
    expect(answer.error).toBe('body must be of type object');
  });

  test('a valid submission is accepted as without the parameter', async () => {
    expectAccepted(await submitListed(validSubmission(), freshAddress()));
  });
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
