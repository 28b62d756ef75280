/**
 * Submissions shared by several instances through PostgreSQL (DATABASE_URL,
 * docs/submissions.md): the store contract on a real server, then two server processes with
 * their own content repositories and their own DATA_DIR, one database. A submission to one is
 * listed and recognised as a duplicate by the other, concurrent identical submissions make one
 * record, the pending cap counts both, and an approval on one publishes only the deal there
 * and is seen as approved by the other. Nothing of a submission is in any git history or DATA_DIR.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PostgresSubmissionStore } from '../../functions/submissions/postgres-store.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { startPair } from '../helpers/instance-pair.ts';
import { gitIn } from '../helpers/git-remote.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';
import { describeSubmissionStore } from '../helpers/submission-store-contract.ts';
import { ADMIN, addAccount, call, callFrom, login, uniqueWord, type JsonResult } from '../helpers/writes-harness.ts';

const MAX_PENDING = 8;
let work: string;
let postgres: PostgresServer;
let databaseUrl: string;
let a: ChildServer;
let b: ChildServer;
const repos: Record<'a' | 'b', string> = { a: '', b: '' };
/** A session per instance: each has its own DATA_DIR (accounts), only the submissions are shared. */
const cookies = new Map<ChildServer, string>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-submissions-shared-'));
  postgres = await startPostgresServer();
  databaseUrl = await postgres.createDatabase('shared_submissions');
  const start = async (name: 'a' | 'b'): Promise<ChildServer> => {
    const contentDir = await gitContentCopy(join(FIXTURES, 'valid'), join(work, name));
    repos[name] = join(contentDir, '..');
    const generatedDir = join(work, name, 'generated');
    await buildGenerated(contentDir, generatedDir);
    const dataDir = join(work, name, 'data');
    // Accounts are in the shared database too: added there, as an operator does with DATABASE_URL set.
    addAccount(dataDir, ADMIN, { DATABASE_URL: databaseUrl });
    const env = { DATABASE_URL: databaseUrl, SESSION_SECRET: 'one-secret-for-every-instance-of-this-test', SUBMISSIONS_MAX_PENDING: String(MAX_PENDING) };
    return startChildServer({ contentDir, generatedDir, dataDir, env });
  };
  // Started together: both create the schema at once on their first use.
  [a, b] = await startPair(start);
  for (const server of [a, b]) cookies.set(server, await login(server.url, ADMIN));
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await postgres?.stop();
  await rm(work, { recursive: true, force: true });
});

let databases = 0;
describeSubmissionStore(
  'PostgreSQL',
  async () => {
    const url = await postgres.createDatabase(`contract_${(databases += 1)}`);
    return { open: () => new PostgresSubmissionStore(url), cleanup: () => Promise.resolve() };
  },
  true,
);

let nextAddress = 1;
const submission = (word = uniqueWord()) => ({
  company_name: `Shared ${word}`,
  website_url: `https://${word}.example`,
  benefit_description: `A year of ${word} at half price for startups.`,
  category: 'saas',
  deal_value: '50% off',
  redemption_link: `https://${word}.example/deal`,
  submitter_email: `${word}@founders.example`,
});
const submitTo = (server: ChildServer, body: unknown): Promise<JsonResult> => callFrom(`127.0.66.${nextAddress++}`, server.url, 'POST', '/api/v1/submit-deal', { body, origin: null });
const listOn = async (server: ChildServer, status: string): Promise<{ submissions: Array<{ id: string; status: string }>; total: number }> => {
  const result = await call(server.url, 'GET', `/api/v1/admin/submissions?status=${status}`, { cookie: cookies.get(server) });
  expect(result.status, result.text).toBe(200);
  return result.body as { submissions: Array<{ id: string; status: string }>; total: number };
};
const idOf = (result: JsonResult): string => {
  expect(result.status, result.text).toBe(201);
  return (result.body as { id: string }).id;
};

describe('two instances, one DATABASE_URL', () => {
  test("a submission to A is listed by B, and the same one sent to B answers A's id as a duplicate", async () => {
    const body = submission();
    const id = idOf(await submitTo(a, body));
    expect((await listOn(b, 'pending')).submissions.map((s) => s.id)).toContain(id);
    const again = await submitTo(b, { ...body, benefit_description: 'The same offer, described again.' });
    expect(again.body).toEqual({ success: true, id, duplicate: true });
  });

  test('the same submission sent 10 times at once, split over both: one record, every answer names it', async () => {
    const body = submission();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => submitTo(i % 2 ? a : b, body)));
    const ids = new Set(answers.map(idOf));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => (r.body as { duplicate?: boolean }).duplicate !== true)).toHaveLength(1);
  });

  test('the pending cap counts both instances: once it is reached, either answers 503 with Retry-After', async () => {
    const waiting = (await listOn(a, 'pending')).total;
    const room = MAX_PENDING - waiting;
    expect(room).toBeGreaterThan(2);
    const answers = await Promise.all(Array.from({ length: room + 4 }, (_, i) => submitTo(i % 2 ? a : b, submission())));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(room);
    expect(answers.filter((r) => r.status === 503)).toHaveLength(4);
    for (const refused of answers.filter((r) => r.status === 503)) expect(refused.headers.get('retry-after')).toBe('3600');
    expect((await listOn(b, 'pending')).total).toBe(MAX_PENDING);
  });

  test("approved on B, sent to A: only the deal is committed, in B's repository by the admin; A lists it approved; no submission in any git history or DATA_DIR", async () => {
    const { submissions } = await listOn(a, 'pending');
    const id = (submissions[0] as { id: string }).id;
    const before = { a: gitIn(repos.a, 'rev-parse', 'HEAD'), b: gitIn(repos.b, 'rev-parse', 'HEAD') };
    const approved = await call(b.url, 'POST', '/api/v1/admin/submissions/approve', { cookie: cookies.get(b), body: { id, status: 'active' } });
    expect(approved.status, approved.text).toBe(200);
    expect(gitIn(repos.b, 'show', '--name-only', '--format=%ae', 'HEAD').trim().split('\n')).toEqual([ADMIN.email, '', expect.stringMatching(/^content\/deals\/.+\.md$/)]);
    expect(gitIn(repos.a, 'rev-parse', 'HEAD')).toBe(before.a);
    expect((await listOn(a, 'approved')).submissions.map((s) => s.id)).toContain(id);
    expect((await listOn(a, 'pending')).submissions.map((s) => s.id)).not.toContain(id);
    expect((await listOn(a, 'all')).submissions.map((s) => s.id)).toContain(id);
    for (const name of ['a', 'b'] as const) {
      expect(gitIn(repos[name], 'log', '--all', '--format=%an %ae %s %b')).not.toContain('@founders.example');
      expect(existsSync(join(work, name, 'data', 'submissions'))).toBe(false);
    }
    // And room for one more on either instance.
    expect((await submitTo(a, submission())).status).toBe(201);
  });

  test('the schema was created once, although both instances started together', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>('SELECT version FROM submission_schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual([1]);
    } finally {
      await client.end();
    }
    expect([...a.errors(), ...b.errors()]).toEqual([]);
  });
});
