/**
 * The review queue (DESIGN: admins review the submission queue; "Submissions are not
 * content"): GET /api/v1/admin/submissions lists submissions to admins only, pending by
 * default, reviewed ones from the archive; approve publishes ONLY the deal, in one commit
 * authored by the admin, then marks the submission approved in the private store; reject
 * touches only the private store, so rejected spam leaves no trace in the content history.
 * No submitter text reaches a commit message. Submissions arrive through the real POST
 * /api/v1/submit-deal.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FileSubmissionStore } from '../../functions/submissions/file-store.ts';
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
  takeErrors,
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

const storeRoot = (): string => join(env.dataDir, 'submissions');
/** The record as the private store holds it on disk (a fresh store instance reads the files). */
const recordFile = async (id: string): Promise<Record<string, unknown>> => {
  const record = await new FileSubmissionStore(storeRoot()).get(id);
  expect(record, `submission ${id} in the private store`).toBeDefined();
  return record as unknown as Record<string, unknown>;
};
/** Month folders of the archive that hold `<id>.json`. */
const archivedIn = (id: string): string[] =>
  existsSync(join(storeRoot(), 'reviewed')) ? readdirSync(join(storeRoot(), 'reviewed')).filter((month) => existsSync(join(storeRoot(), 'reviewed', month, `${id}.json`))) : [];

/** Every commit of the content repository with its full patch: what a public clone would show. */
const fullHistory = (): string => git(env.repo, 'log', '--all', '-p', '--format=%H%n%an <%ae>%n%cn <%ce>%n%B');

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

  test('?id= answers that one submission with its suggested deal, when it has the status asked for', async () => {
    const { id } = await submitNew();
    const one = (await admin('GET', `/api/v1/admin/submissions?id=${id}`)).body as { submissions: SubmissionRecord[]; total: number; deals: Record<string, { title: string }> };
    expect(one.submissions.map((s) => s.id)).toEqual([id]);
    expect(one.total).toBe(1);
    expect(Object.keys(one.deals)).toEqual([id]);
    const approvedOnly = (await admin('GET', `/api/v1/admin/submissions?status=approved&id=${id}`)).body as { submissions: SubmissionRecord[]; total: number };
    expect(approvedOnly).toMatchObject({ submissions: [], total: 0 });
    expect((await admin('GET', '/api/v1/admin/submissions?id=sub-0000000000000000')).body).toMatchObject({ submissions: [], total: 0 });
    expect(expectError(await admin('GET', '/api/v1/admin/submissions?id=../etc'), 400, 'validation_error').error).toContain('`id`');
  });

  test('an unknown status filter is 400 validation_error', async () => {
    expectError(await admin('GET', '/api/v1/admin/submissions?status=done'), 400, 'validation_error');
  });

  test('pages: limit and offset pick a slice of the newest-first list, total counts them all; bad values are 400', async () => {
    await submitNew();
    await submitNew();
    const all = (await admin('GET', '/api/v1/admin/submissions?status=all')).body as { submissions: SubmissionRecord[]; total: number };
    expect(all.total).toBeGreaterThanOrEqual(2);
    const second = (await admin('GET', '/api/v1/admin/submissions?status=all&limit=1&offset=1')).body as { submissions: SubmissionRecord[]; total: number };
    expect(second).toMatchObject({ success: true, total: all.total });
    expect(second.submissions.map((s) => s.id)).toEqual([all.submissions[1]?.id]);
    for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'offset=1.5']) {
      expect(expectError(await admin('GET', `/api/v1/admin/submissions?${query}`), 400, 'validation_error').error).toContain(query.split('=')[0]);
    }
  });
});

describe('POST /api/v1/admin/submissions/approve', () => {
  test('publishes the deal in ONE commit by the admin touching only deals/<slug>.md; the submission is marked approved in the private store and archived', async () => {
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
    expect(changedFiles(env.repo)).toEqual([['A', `content/deals/${deal.slug}.md`]]);
    expect(git(env.repo, 'log', '-1', '--format=%an|%ae').trim()).toBe(`${ADMIN.email}|${ADMIN.email}`);
    // Neither the submitter's e-mail nor anything else of the private record is in the commit or the deal file.
    const commit = git(env.repo, 'show', '--format=%an %ae %cn %ce %B', 'HEAD');
    expect(commit).not.toContain(String(body.submitter_email));
    expect(git(env.repo, 'log', '-1', '--format=%B').trim()).not.toContain(String(body.company_name));
    expect(porcelain(env.repo)).toBe('');

    expect(await recordFile(id)).toMatchObject({ id, status: 'approved', reviewedBy: ADMIN.email, dealId: deal.id });
    // Archived: out of the pending folder and the pending listing, kept under reviewed/<YYYY-MM>/.
    expect(existsSync(join(storeRoot(), 'pending', `${id}.json`))).toBe(false);
    expect(archivedIn(id)).toEqual([new Date().toISOString().slice(0, 7)]);
    expect((await listSubmissions()).map((s) => s.id)).not.toContain(id);
    expect((await listSubmissions('approved')).find((s) => s.id === id)).toMatchObject({ status: 'approved', dealId: deal.id });
    expect((await listSubmissions('all')).find((s) => s.id === id)).toMatchObject({ status: 'approved' });
  });

  test('a company name carrying a newline and a Co-authored-by trailer reaches no commit message, header or trailer', async () => {
    const word = uniqueWord();
    const { id } = await submitNew({ company_name: `Trailer ${word}\nCo-authored-by: Victim <victim@${word}.example>`, submitter_email: `${word}@spoof.example` });
    const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active', category: 'saas-discounts' });
    expect(result.status, result.text).toBe(200);
    for (const format of ['%B', '%(trailers)', '%an %ae %cn %ce']) {
      const text = git(env.repo, 'log', '--all', `--format=${format}`);
      expect(text, format).not.toMatch(/co-authored-by/i);
      expect(text, format).not.toContain(`victim@${word}.example`);
      expect(text, format).not.toContain(`${word}@spoof.example`);
    }
    expect(git(env.repo, 'log', '-1', '--format=%(trailers)').trim()).toBe('');
    expect(git(env.repo, 'log', '-1', '--format=%ae').trim()).toBe(ADMIN.email);
  });

  test('a retried approval whose deal was already published (the private store failed after the commit) marks it approved without a second commit', async () => {
    const { id } = await submitNew();
    const reviewed = join(storeRoot(), 'reviewed');
    await mkdir(reviewed, { recursive: true });
    // The archive cannot be written (a file where its folder should be; root writes through chmod).
    await rename(reviewed, `${reviewed}.away`);
    await writeFile(reviewed, 'not a folder');
    let first: JsonResult;
    try {
      first = await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' });
    } finally {
      await rm(reviewed);
      await rename(`${reviewed}.away`, reviewed);
    }
    // Honest about what happened: the deal is committed, the approval is not recorded yet.
    expect(expectError(first, 503, 'service_unavailable').error).toContain(`d-${id.slice(4)}\` is committed`);
    expect(takeErrors(env.server).every((line) => line.includes('approval_not_recorded'))).toBe(true);
    expect(changedFiles(env.repo)[0]?.[1]).toMatch(/^content\/deals\//);
    const published = repoState(env.repo);
    expect((await recordFile(id)).status).toBe('pending');
    // Rejecting it now would contradict the published deal.
    expectError(await admin('POST', '/api/v1/admin/submissions/reject', { id, reason: 'Changed my mind.' }), 400, 'conflict');
    const again = await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' });
    expect(again.status, again.text).toBe(200);
    expectUnchanged(env.repo, published);
    expect(await recordFile(id)).toMatchObject({ status: 'approved', dealId: `d-${id.slice(4)}` });
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

  test('an unknown id is 404, a bad status, a missing id or an empty reason is 400 validation_error naming the field; nothing changes', async () => {
    const { id } = await submitNew();
    const before = repoState(env.repo);
    expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id: 'sub-0000000000000000' }), 404, 'not_found');
    // Checked by the schema /openapi.json publishes (src/schemas/requests.ts): the message names the field.
    expect(expectError(await admin('POST', '/api/v1/admin/submissions/approve', {}), 400, 'validation_error').error).toMatch(/^`id` is required/);
    expect(expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'nope' }), 400, 'validation_error').error).toMatch(/^`status` expected one of `active`/);
    expect(expectError(await admin('POST', '/api/v1/admin/submissions/reject', { id, reason: '   ' }), 400, 'validation_error').error).toMatch(/^`reason` must not be empty/);
    expect(expectError(await admin('POST', '/api/v1/admin/submissions/reject', { id, reason: 7 }), 400, 'validation_error').error).toMatch(/^`reason` expected string, got `7`/);
    expectUnchanged(env.repo, before);
    expect((await recordFile(id)).status).toBe('pending');
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

  test("the site category the submitter chose (`site_category`) is the default deal category, before the one matching `category`; the admin's `category` still wins", async () => {
    // `saas` alone would give saas-discounts: the submitter's choice comes first, even in `other`.
    const chosen = await submitNew({ category: 'saas', site_category: 'cloud-credits' });
    expect((await recordFile(chosen.id)).site_category).toBe('cloud-credits');
    const approved = await admin('POST', '/api/v1/admin/submissions/approve', { id: chosen.id });
    expect(approved.status, approved.text).toBe(200);
    expect((approved.body as { deal: Deal }).deal.category).toBe('cloud-credits');
    expect((approved.body as { submission: SubmissionRecord }).submission.site_category).toBe('cloud-credits');

    const other = await submitNew({ category: 'other', site_category: 'accelerators' });
    const program = await admin('POST', '/api/v1/admin/submissions/approve', { id: other.id });
    expect(program.status, program.text).toBe(200);
    expect((program.body as { deal: Deal }).deal.category).toBe('accelerators');

    const overruled = await submitNew({ category: 'saas', site_category: 'accelerators' });
    const admins = await admin('POST', '/api/v1/admin/submissions/approve', { id: overruled.id, category: 'saas-discounts' });
    expect(admins.status, admins.text).toBe(200);
    expect((admins.body as { deal: Deal }).deal.category).toBe('saas-discounts');
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
      expect((await recordFile(id)).status).toBe('pending');
    });
  }

  test('a chosen valid slug and title are used', async () => {
    const { id, word } = await submitNew();
    const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, slug: `chosen-${word}`, title: `Chosen ${word}` });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { deal: Deal }).deal).toMatchObject({ slug: `chosen-${word}`, title: `Chosen ${word}` });
  });

  test('without a chosen title and slug: the title is the company and what it offers, the slug the company name by the one slug maker (transliterated, not stripped)', async () => {
    const word = uniqueWord();
    const { id } = await submitNew({ company_name: `Café Straße ${word}`, deal_value: 'Скидка 20%', category: 'cloud' });
    const result = await admin('POST', '/api/v1/admin/submissions/approve', { id });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { deal: Deal }).deal).toMatchObject({ slug: `cafe-strasse-${word}`, title: `Café Straße ${word} Startup Credits`, value: 'Скидка 20%' });
  });

  test('the default slug is unique against the catalog, drafts included: -2, then -3', async () => {
    const word = uniqueWord();
    // A draft holds the company's slug, a published deal the next one.
    const draft = await admin('POST', '/api/v1/deals', { slug: `dup-${word}`, title: `Dup ${word}`, provider: 'P', category: 'saas-discounts', applicationUrl: 'https://dup.example', draft: true });
    expect(draft.status, draft.text).toBe(200);
    const first = await submitNew({ company_name: `Dup ${word}` });
    const second = await submitNew({ company_name: `Dup ${word}` });
    // The listing suggests the same slug the approval will use.
    const page = (await admin('GET', '/api/v1/admin/submissions')).body as { deals: Record<string, Partial<Deal>> };
    expect(page.deals[first.id]).toMatchObject({ slug: `dup-${word}-2`, title: `Dup ${word} Startup Discount`, category: 'saas-discounts', provider: `Dup ${word}` });
    const a = await admin('POST', '/api/v1/admin/submissions/approve', { id: first.id });
    expect((a.body as { deal: Deal }).deal.slug).toBe(`dup-${word}-2`);
    const b = await admin('POST', '/api/v1/admin/submissions/approve', { id: second.id });
    expect((b.body as { deal: Deal }).deal.slug).toBe(`dup-${word}-3`);
  });

  test('approval from another site (foreign Origin) is 403 and changes nothing', async () => {
    const { id } = await submitNew();
    const before = repoState(env.repo);
    expectError(await call(env.url, 'POST', '/api/v1/admin/submissions/approve', { cookie: adminCookie, origin: 'https://evil.example', body: { id } }), 403, 'forbidden');
    expectUnchanged(env.repo, before);
  });
});

describe('POST /api/v1/admin/submissions/approve with an edited deal', () => {
  /** The full deal as the admin edited it in the deal form, from the listing's suggestion. */
  async function edited(id: string, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
    const page = (await admin('GET', '/api/v1/admin/submissions')).body as { deals: Record<string, Record<string, unknown>> };
    const suggested = page.deals[id];
    expect(suggested, `suggestion for ${id}`).toBeDefined();
    return { ...suggested, ...patch };
  }

  test('publishes exactly the edited deal in ONE commit authored by the admin; the submission is approved and leaves the queue', async () => {
    const { id, word, body } = await submitNew();
    const before = repoState(env.repo);
    const deal = await edited(id, { title: `Edited ${word} for Startups`, slug: `edited-${word}`, shortDescription: 'Three months free.', tags: ['edited', word], difficulty: 'easy', valueUsd: 300 });
    const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, deal });
    expect(result.status, result.text).toBe(200);
    const answer = result.body as { deal: Deal; submission: SubmissionRecord };
    expect(answer.deal).toMatchObject({ slug: `edited-${word}`, title: `Edited ${word} for Startups`, tags: ['edited', word], difficulty: 'easy', valueUsd: 300, provider: body.company_name });
    expect(commitCount(env.repo)).toBe(before.count + 1);
    expect(changedFiles(env.repo)).toEqual([['A', `content/deals/edited-${word}.md`]]);
    expect(git(env.repo, 'log', '-1', '--format=%an|%ae').trim()).toBe(`${ADMIN.email}|${ADMIN.email}`);
    const file = git(env.repo, 'show', `HEAD:content/deals/edited-${word}.md`);
    expect(file).toContain(`title: Edited ${word} for Startups`);
    expect(file).toContain('shortDescription: Three months free.');
    expect(file).toContain('difficulty: easy');
    expect(porcelain(env.repo)).toBe('');
    expect(answer.submission).toMatchObject({ id, status: 'approved', dealId: answer.deal.id });
    expect(await recordFile(id)).toMatchObject({ status: 'approved', reviewedBy: ADMIN.email });
    expect((await listSubmissions()).map((s) => s.id)).not.toContain(id);
    expect((await call(env.url, 'GET', `/api/v1/deals?slug=edited-${word}`)).status).toBe(200);
  });

  test('a bad edited field is 400 naming it; nothing is committed and the submission stays pending', async () => {
    const { id } = await submitNew();
    for (const [patch, field] of [
      [{ applicationUrl: 'not a url' }, 'applicationUrl'],
      [{ status: 'open' }, 'status'],
      [{ title: '' }, 'title'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const before = repoState(env.repo);
      const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, deal: await edited(id, patch) });
      expect(expectError(result, 400, 'validation_error').error).toContain(field);
      expectUnchanged(env.repo, before);
    }
    expect(await recordFile(id)).toMatchObject({ status: 'pending' });
    expect((await listSubmissions()).map((s) => s.id)).toContain(id);
  });

  test('approved as a draft: the submission is approved, the deal is in no public answer until published', async () => {
    const { id, word } = await submitNew();
    const result = await admin('POST', '/api/v1/admin/submissions/approve', { id, deal: await edited(id, { slug: `draft-${word}`, draft: true }) });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { deal: Deal }).deal).toMatchObject({ slug: `draft-${word}`, draft: true });
    expect((await call(env.url, 'GET', `/api/v1/deals?slug=draft-${word}`)).status).toBe(404);
    expect(await recordFile(id)).toMatchObject({ status: 'approved' });
  });

  test('an edited slug another deal has is 400 conflict; nothing is committed', async () => {
    const { id } = await submitNew();
    const taken = (expectDealList((await call(env.url, 'GET', '/api/v1/deals?limit=1')).body).deals[0] as Deal).slug;
    const before = repoState(env.repo);
    expectError(await admin('POST', '/api/v1/admin/submissions/approve', { id, deal: await edited(id, { slug: taken }) }), 400, 'conflict');
    expectUnchanged(env.repo, before);
    expect(await recordFile(id)).toMatchObject({ status: 'pending' });
  });
});

describe('POST /api/v1/admin/submissions/reject', () => {
  test('marks the submission rejected with the reason in the private store only: no commit, no trace in the content history; no deal is published', async () => {
    const { id, word, body } = await submitNew();
    const before = repoState(env.repo);
    const result = await admin('POST', '/api/v1/admin/submissions/reject', { id, reason: 'Not a startup offer.' });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { submission: SubmissionRecord }).submission).toMatchObject({ id, status: 'rejected', rejectionReason: 'Not a startup offer.', reviewedBy: ADMIN.email });
    expectUnchanged(env.repo, before);
    const history = fullHistory();
    for (const trace of [id, word, String(body.company_name), String(body.submitter_email), 'Not a startup offer.']) expect(history).not.toContain(trace);
    expect(await recordFile(id)).toMatchObject({ status: 'rejected', rejectionReason: 'Not a startup offer.' });
    expect(archivedIn(id)).toHaveLength(1);
    expect((await listSubmissions('rejected')).map((s) => s.id)).toContain(id);
    expect((await listSubmissions('all')).map((s) => s.id)).toContain(id);
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
    const results = await Promise.all([admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' }), admin('POST', '/api/v1/admin/submissions/approve', { id, status: 'active' })]);
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
    const status = (await recordFile(id)).status;
    // The stored record and the public catalog agree with each other...
    expect({ status, published }).toEqual(status === 'approved' ? { status: 'approved', published: 1 } : { status: 'rejected', published: 0 });
    // ...and with the one request that was answered 200.
    expect([approve.status, reject.status].sort()).toEqual([200, 400]);
    expect(status).toBe(approve.status === 200 ? 'approved' : 'rejected');
  });
});
