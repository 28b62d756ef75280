/**
 * The review queue (DESIGN: admins review the submission queue; every change is a commit with
 * their identity): GET /api/v1/admin/submissions lists pending submissions to admins only;
 * approve publishes the deal and marks the submission approved in ONE commit; reject records
 * the reason. Submissions arrive through the real POST /api/v1/submit-deal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { describe, expect, test } from 'vitest';
import { DealSchema, type Deal } from '../../src/schemas/deal.ts';
import { expectDealList } from '../helpers/api-schemas.ts';
import {
  ADMIN,
  call,
  callFrom,
  changedFiles,
  commitCount,
  expectError,
  expectUnchanged,
  git,
  login,
  MEMBER,
  porcelain,
  repoState,
  uniqueWord,
  useWriteServer,
  type JsonResult,
  type WriteServer,
} from '../helpers/writes-harness.ts';

let env: WriteServer;
let adminCookie: string;
let memberCookie: string;

useWriteServer([ADMIN, MEMBER], async (started) => {
  env = started;
  adminCookie = await login(env.url, ADMIN);
  memberCookie = await login(env.url, MEMBER);
});

interface SubmissionRecord {
  id: string;
  status: string;
  company_name: string;
  submitter_email?: string;
  reviewedBy?: string;
  rejectionReason?: string;
  dealId?: string;
  [key: string]: unknown;
}

let nextAddress = 1;
/** Submit from a fresh loopback address (so the per-address budget never interferes). */
async function submitNew(patch: Record<string, unknown> = {}): Promise<{ id: string; word: string; body: Record<string, unknown> }> {
  const word = uniqueWord();
  const body = {
    company_name: `Review ${word}`,
    website_url: `https://${word}.example`,
    benefit_description: `Three months free of ${word} for startups.`,
    category: 'saas',
    deal_value: '3 months free',
    redemption_link: `https://${word}.example/startups`,
    submitter_email: `${word}@founders.example`,
    ...patch,
  };
  const result = await callFrom(`127.0.9.${nextAddress++}`, env.url, 'POST', '/api/v1/submit-deal', { body, origin: null });
  expect(result.status, result.text).toBe(201);
  return { id: (result.body as { id: string }).id, word, body };
}

const admin = (method: string, path: string, body?: unknown): Promise<JsonResult> => call(env.url, method, path, { cookie: adminCookie, body });

async function listSubmissions(status = ''): Promise<SubmissionRecord[]> {
  const result = await admin('GET', `/api/v1/admin/submissions${status ? `?status=${status}` : ''}`);
  expect(result.status, result.text).toBe(200);
  const body = result.body as { success: boolean; submissions: SubmissionRecord[]; total: number };
  expect(body.success).toBe(true);
  expect(body.total).toBe(body.submissions.length);
  return body.submissions;
}

const recordFile = (id: string): Record<string, unknown> => matter(readFileSync(join(env.contentDir, 'submissions', `${id}.md`), 'utf8')).data as Record<string, unknown>;

describe('GET /api/v1/admin/submissions', () => {
  test('is for admins only: 401 without a session, 403 for a member', async () => {
    expectError(await call(env.url, 'GET', '/api/v1/admin/submissions'), 401, 'unauthorized');
    expectError(await call(env.url, 'GET', '/api/v1/admin/submissions', { cookie: memberCookie }), 403, 'forbidden');
    expectError(await call(env.url, 'POST', '/api/v1/admin/submissions/approve', { cookie: memberCookie, body: { id: 'sub-0000000000000000' } }), 403, 'forbidden');
    expectError(await call(env.url, 'POST', '/api/v1/admin/submissions/reject', { body: { id: 'sub-0000000000000000', reason: 'x' } }), 401, 'unauthorized');
  });

  test('lists pending submissions with their fields', async () => {
    const a = await submitNew();
    const b = await submitNew({ category: 'cloud' });
    const pending = await listSubmissions();
    const ids = pending.map((s) => s.id);
    expect(ids).toContain(a.id);
    expect(ids).toContain(b.id);
    for (const s of pending) expect(s.status).toBe('pending');
    expect(pending.find((s) => s.id === a.id)).toMatchObject({ ...a.body, id: a.id, status: 'pending' });
  });

  test('an unknown status filter is 400 validation_error', async () => {
    expectError(await admin('GET', '/api/v1/admin/submissions?status=done'), 400, 'validation_error');
  });
});

describe('POST /api/v1/admin/submissions/approve', () => {
  test('publishes the deal, marks the submission approved, in ONE commit by the admin touching both files', async () => {
    const { id, word, body } = await submitNew({ is_exclusive: true });
    const before = repoState(env.repo);
    const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'limited' });
    expect(result.status, result.text).toBe(200);
    const answer = result.body as { success: boolean; deal: Deal; submission: SubmissionRecord };
    expect(answer.success).toBe(true);
    const deal = DealSchema.parse(answer.deal);
    expect(deal).toMatchObject({ status: 'limited', provider: body.company_name, category: 'saas-discounts', applicationUrl: body.redemption_link, providerWebsite: body.website_url });

    // Visible to the public API at once, by slug, by id, in the list and in search.
    const bySlug = await call(env.url, 'GET', `/api/v1/deals?slug=${deal.slug}`);
    expect(bySlug.status).toBe(200);
    expect((bySlug.body as { deal: Deal }).deal).toEqual(deal);
    expect((await call(env.url, 'GET', `/api/v1/deals?id=${deal.id}`)).status).toBe(200);
    expect(expectDealList((await call(env.url, 'GET', '/api/v1/deals')).body).deals.map((d) => d.slug)).toContain(deal.slug);
    expect(expectDealList((await call(env.url, 'GET', `/api/v1/deals?search=${word}`)).body).deals.map((d) => d.slug)).toEqual([deal.slug]);
    // The submitter's e-mail is not published with the deal.
    expect(bySlug.text).not.toContain(String(body.submitter_email));

    expect(commitCount(env.repo)).toBe(before.count + 1);
    expect(changedFiles(env.repo).sort()).toEqual(
      [
        ['A', `content/deals/${deal.slug}.md`],
        ['M', `content/submissions/${id}.md`],
      ].sort(),
    );
    expect(git(env.repo, 'log', '-1', '--format=%ae').trim()).toBe(ADMIN.email);
    expect(porcelain(env.repo)).toBe('');

    expect(recordFile(id)).toMatchObject({ id, status: 'approved', reviewedBy: ADMIN.email, dealId: deal.id });
    expect((await listSubmissions()).map((s) => s.id)).not.toContain(id);
    expect((await listSubmissions('approved')).find((s) => s.id === id)).toMatchObject({ status: 'approved', dealId: deal.id });
  });

  test('approving twice is 400 conflict and changes nothing', async () => {
    const { id } = await submitNew();
    const first = await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' });
    expect(first.status, first.text).toBe(200);
    const before = repoState(env.repo);
    expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' }), 400, 'conflict');
    expectError(await admin('POST', '/api/v1/admin/submissions/reject', { id, reason: 'Too late' }), 400, 'conflict');
    expectUnchanged(env.repo, before);
  });

  test('an unknown id is 404, a bad status or a missing id is 400 validation_error; nothing changes', async () => {
    const { id } = await submitNew();
    const before = repoState(env.repo);
    expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id: 'sub-0000000000000000' }), 404, 'not_found');
    expectError(await admin('POST', '/api/v1/admin/submissions/approve', {}), 400, 'validation_error');
    expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'nope' }), 400, 'validation_error');
    expectUnchanged(env.repo, before);
    expect(recordFile(id).status).toBe('pending');
  });

  test('a submission in category `other` needs a deal category; with one it is approved', async () => {
    const { id } = await submitNew({ category: 'other' });
    const before = repoState(env.repo);
    const error = expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id }), 400, 'validation_error');
    expect(error.error).toContain('category');
    expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id, category: 'no-such-category' }), 400, 'validation_error');
    expectUnchanged(env.repo, before);
    const ok = await admin('POST', '/api/v1/admin/submissions/approve', { id, category: 'accelerators' });
    expect(ok.status, ok.text).toBe(200);
    expect((ok.body as { deal: Deal }).deal.category).toBe('accelerators');
  });

  test('a coupon-code submission becomes a deal whose applicationUrl is the website and whose description holds the code', async () => {
    const { id, body } = await submitNew({ redemption_method: 'code', redemption_link: 'FOUNDERS50' });
    const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' });
    expect(result.status, result.text).toBe(200);
    const deal = (result.body as { deal: Deal }).deal;
    expect(deal.applicationUrl).toBe(body.website_url);
    expect(deal.description).toContain('FOUNDERS50');
  });

  for (const slug of ['../escaped', 'nested/escaped', 'Bad Slug']) {
    test(`a chosen slug ${JSON.stringify(slug)} is 400 validation_error naming slug; nothing is written, the submission stays pending`, async () => {
      const { id } = await submitNew();
      const before = repoState(env.repo);
      const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, slug });
      expect(expectError(result, 400, 'validation_error').error).toContain('slug');
      expectUnchanged(env.repo, before);
      expect(recordFile(id).status).toBe('pending');
    });
  }

  test('a chosen valid slug and title are used', async () => {
    const { id, word } = await submitNew();
    const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, slug: `chosen-${word}`, title: `Chosen ${word}` });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { deal: Deal }).deal).toMatchObject({ slug: `chosen-${word}`, title: `Chosen ${word}` });
  });

  test('approval from another site (foreign Origin) is 403 and changes nothing', async () => {
    const { id } = await submitNew();
    const before = repoState(env.repo);
    expectError(await call(env.url, 'POST', '/api/v1/admin/submissions/approve', { cookie: adminCookie, origin: 'https://evil.example', body: { id } }), 403, 'forbidden');
    expectUnchanged(env.repo, before);
  });
});

describe('POST /api/v1/admin/submissions/reject', () => {
  test('marks the submission rejected with the reason, in one commit by the admin; no deal is published', async () => {
    const { id, word } = await submitNew();
    const before = repoState(env.repo);
    const result = await admin('POST', '/api/v1/admin/submissions/reject', { id, reason: 'Not a startup offer.' });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { submission: SubmissionRecord }).submission).toMatchObject({ id, status: 'rejected', rejectionReason: 'Not a startup offer.', reviewedBy: ADMIN.email });
    expect(commitCount(env.repo)).toBe(before.count + 1);
    expect(changedFiles(env.repo)).toEqual([['M', `content/submissions/${id}.md`]]);
    expect(git(env.repo, 'log', '-1', '--format=%ae').trim()).toBe(ADMIN.email);
    expect(recordFile(id)).toMatchObject({ status: 'rejected', rejectionReason: 'Not a startup offer.' });
    expect((await listSubmissions('rejected')).map((s) => s.id)).toContain(id);
    expect((await listSubmissions()).map((s) => s.id)).not.toContain(id);
    expect(expectDealList((await call(env.url, 'GET', `/api/v1/deals?search=${word}&status=all&scope=all`)).body).count).toBe(0);
    expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id }), 400, 'conflict');
  });

  test('a missing reason is 400 validation_error and changes nothing', async () => {
    const { id } = await submitNew();
    const before = repoState(env.repo);
    expectError(await admin('POST', '/api/v1/admin/submissions/reject', { id }), 400, 'validation_error');
    expectError(await admin('POST', '/api/v1/admin/submissions/reject', { id, reason: '   ' }), 400, 'validation_error');
    expectUnchanged(env.repo, before);
  });
});

describe('concurrent reviews of one submission', () => {
  test('two concurrent approvals: exactly one 200, the other 400 conflict, one commit', async () => {
    const { id } = await submitNew();
    const before = repoState(env.repo);
    const results = await Promise.all([
      admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' }),
      admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(commitCount(env.repo)).toBe(before.count + 1);
  });

  test('a concurrent approval and rejection: exactly one wins, and the record agrees with what is published', async () => {
    const { id, word } = await submitNew();
    const [approve, reject] = await Promise.all([
      admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' }),
      admin('POST', '/api/v1/admin/submissions/reject', { id, reason: 'Raced rejection.' }),
    ]);
    const published = expectDealList((await call(env.url, 'GET', `/api/v1/deals?search=${word}&status=all&scope=all`)).body).count;
    const status = recordFile(id).status;
    // The stored record and the public catalog agree with each other...
    expect({ status, published }).toEqual(status === 'approved' ? { status: 'approved', published: 1 } : { status: 'rejected', published: 0 });
    // ...and with the one request that was answered 200.
    expect([approve.status, reject.status].sort()).toEqual([200, 400]);
    expect(status).toBe(approve.status === 200 ? 'approved' : 'rejected');
  });
});
