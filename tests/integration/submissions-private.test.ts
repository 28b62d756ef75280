/**
 * The private submission store's limits on the real server (docs/submissions.md): the pending
 * queue is capped (SUBMISSIONS_MAX_PENDING; beyond it 503 service_unavailable with Retry-After,
 * nothing stored, duplicates still answered), and submitter e-mails are deleted
 * SUBMISSION_EMAIL_RETENTION_DAYS after review by the sweep, driven by the server's clock.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, call, callFrom, expectError, expectUnchanged, login, repoState, startWriteServer, takeErrors, uniqueWord, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';

let nextAddress = 1;
const submission = (word = uniqueWord(), email = `${word}@founders.example`): Record<string, unknown> => ({
  company_name: `Private ${word}`,
  website_url: `https://${word}.example`,
  benefit_description: `Six months free of ${word} for startups.`,
  category: 'saas',
  deal_value: '6 months free',
  redemption_link: `https://${word}.example/startups`,
  submitter_email: email,
});
/** Submit from a fresh loopback address, so the 5-per-hour budget never interferes. */
const submit = (env: WriteServer, body: Record<string, unknown>): Promise<JsonResult> => callFrom(`127.0.44.${nextAddress++}`, env.url, 'POST', '/api/v1/submit-deal', { body, origin: null });

/** A write server with its own settings for one describe block; fails a test after which it logged an error. */
function useServer(settings: Record<string, string>): { env: WriteServer; cookie: string } {
  const ctx = {} as { env: WriteServer; cookie: string };
  beforeAll(async () => {
    ctx.env = await startWriteServer([ADMIN], settings);
    ctx.cookie = await login(ctx.env.url, ADMIN);
  });
  afterAll(async () => {
    await ctx.env?.stop();
  });
  afterEach(() => {
    expect(takeErrors(ctx.env.server)).toEqual([]);
  });
  return ctx;
}

describe('the pending queue is capped (SUBMISSIONS_MAX_PENDING=3)', () => {
  const ctx = useServer({ SUBMISSIONS_MAX_PENDING: '3' });

  test('beyond 3 waiting: 503 service_unavailable with Retry-After and a clear message, nothing stored; a duplicate is still answered; a review makes room', async () => {
    const { env, cookie } = ctx;
    const accepted: string[] = [];
    const first = submission();
    for (const body of [first, submission(), submission()]) {
      const result = await submit(env, body);
      expect(result.status, result.text).toBe(201);
      accepted.push((result.body as { id: string }).id);
    }
    const pending = join(env.dataDir, 'submissions', 'pending');
    const files = readdirSync(pending).sort();
    const before = repoState(env.repo);

    const full = await submit(env, submission());
    const error = expectError(full, 503, 'service_unavailable');
    expect(error.error).toBe('The review queue is full: 3 submissions are waiting for review.');
    expect(error.hint).toBe('Nothing was stored; send it again later.');
    expect(Number(full.headers.get('retry-after'))).toBe(3600);
    expect(readdirSync(pending).sort()).toEqual(files);
    expectUnchanged(env.repo, before);

    const again = await submit(env, first);
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual({ success: true, id: accepted[0], duplicate: true });

    const rejected = await call(env.url, 'POST', '/api/v1/admin/submissions/reject', { cookie, body: { id: accepted[1], reason: 'Spam.' } });
    expect(rejected.status, rejected.text).toBe(200);
    expect((await submit(env, submission())).status).toBe(201);
    expect((await submit(env, submission())).status).toBe(503);
  });
});

describe('submitter e-mails are deleted 30 days after review (the default)', () => {
  const ctx = useServer({});
  const DAY = 24 * 60 * 60 * 1000;

  test('the sweep follows the injected clock: kept at 29 days, gone at 31 for approved and rejected ones; a pending one keeps its e-mail', async () => {
    const { env, cookie } = ctx;
    const admin = (path: string, body: unknown) => call(env.url, 'POST', path, { cookie, body });
    const ids: Record<'approved' | 'rejected' | 'pending', string> = { approved: '', rejected: '', pending: '' };
    const emails = { approved: `${uniqueWord()}@a.example`, rejected: `${uniqueWord()}@r.example`, pending: `${uniqueWord()}@p.example` };
    for (const state of ['approved', 'rejected', 'pending'] as const) {
      const result = await submit(env, submission(uniqueWord(), emails[state]));
      expect(result.status, result.text).toBe(201);
      ids[state] = (result.body as { id: string }).id;
    }
    expect((await admin('/api/v1/admin/submissions/approve', { id: ids.approved, status: 'active' })).status).toBe(200);
    expect((await admin('/api/v1/admin/submissions/reject', { id: ids.rejected, reason: 'Not a deal.' })).status).toBe(200);

    const deps = env.server.deps;
    const reviewedAt = Date.now();
    try {
      deps.clock = () => new Date(reviewedAt + 29 * DAY);
      expect(await deps.submissions.sweep()).toBe(0);
      deps.clock = () => new Date(reviewedAt + 31 * DAY);
      expect(await deps.submissions.sweep()).toBe(2);
    } finally {
      // Back to now: the admin session would have expired a month later.
      deps.clock = () => new Date();
    }
    expect(env.server.lines.some((line) => line.includes('"submission_emails_removed"') && line.includes('"count":2'))).toBe(true);

    const listed = await call(env.url, 'GET', '/api/v1/admin/submissions?status=all', { cookie });
    const records = (listed.body as { submissions: Array<Record<string, unknown>> }).submissions;
    const byId = (id: string) => records.find((r) => r.id === id);
    expect(byId(ids.approved)?.submitter_email).toBeUndefined();
    expect(byId(ids.rejected)?.submitter_email).toBeUndefined();
    expect(Date.parse(String(byId(ids.approved)?.emailRemovedAt))).toBeGreaterThanOrEqual(reviewedAt + 31 * DAY);
    expect(byId(ids.pending)?.submitter_email).toBe(emails.pending);
    // Gone from the disk too, not only from the answer: no file anywhere in the store holds them.
    const root = join(env.dataDir, 'submissions');
    const onDisk = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
      .join('\n');
    expect(onDisk).not.toContain(emails.approved);
    expect(onDisk).not.toContain(emails.rejected);
    expect(onDisk).toContain(emails.pending);
  });
});
