/**
 * The one-time move of old `content/submissions/*.md` into the private store, at server start
 * (docs/submissions.md "Moving old submissions out"): each record imported as it was, then all
 * files removed from the content repository in ONE commit authored by the system whose message
 * holds no submitter data; idempotent (a second run changes nothing, and never overwrites a
 * record reviewed since); the start-up sweep removes e-mails of records reviewed long ago.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FileSubmissionStore } from '../../functions/submissions/file-store.ts';
import { migrateSubmissions } from '../../functions/submissions/migrate.ts';
import { toMarkdown } from '../../src/pipeline/serialize.ts';
import { FIXTURES, startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN, addAccount, call, changedFiles, commitCount, git, login, porcelain, takeErrors } from '../helpers/writes-harness.ts';

const PENDING = {
  id: 'sub-00000000000000a1',
  status: 'pending',
  submittedAt: '2026-11-20T10:00:00.000Z',
  company_name: 'Oldco Migrated',
  website_url: 'https://oldco.example',
  benefit_description: 'Half off the first year for any startup.',
  category: 'saas',
  deal_value: '50% off',
  redemption_method: 'link',
  redemption_link: 'https://oldco.example/startups',
  submitter_email: 'founder@oldco.example',
};
const REJECTED = {
  ...PENDING,
  id: 'sub-00000000000000b2',
  status: 'rejected',
  submittedAt: '2020-01-01T10:00:00.000Z',
  company_name: 'Spamco Migrated',
  redemption_link: 'https://spamco.example/win',
  submitter_email: 'spammer@spamco.example',
  reviewedAt: '2020-01-02T10:00:00.000Z',
  reviewedBy: 'ada@example.com',
  rejectionReason: 'Spam.',
};

let work: string;
let dataDir: string;
let server: TestServer;
let repo: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-migration-'));
  const source = join(work, 'source');
  await cp(join(FIXTURES, 'valid'), source, { recursive: true });
  await mkdir(join(source, 'submissions'), { recursive: true });
  // As the old desk wrote them: front matter only.
  for (const record of [PENDING, REJECTED]) await writeFile(join(source, 'submissions', `${record.id}.md`), toMarkdown(record, ''));
  dataDir = join(work, 'data');
  addAccount(dataDir, ADMIN);
  server = await startTestServer(source, { DATA_DIR: dataDir });
  repo = join(server.config.contentDir, '..');
});
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

const store = () => new FileSubmissionStore(join(dataDir, 'submissions'));

test('at start: every old record is imported, then the files leave the content repository in one commit by the system with no submitter data', async () => {
  expect(git(repo, 'log', '-1', '--format=%s|%b|%an <%ae>').trim()).toBe('Move submissions out of the published content||Deals catalog <catalog@localhost>');
  expect(changedFiles(repo).sort()).toEqual([
    ['D', `content/submissions/${PENDING.id}.md`],
    ['D', `content/submissions/${REJECTED.id}.md`],
  ]);
  expect(commitCount(repo)).toBe(2);
  expect(existsSync(join(server.config.contentDir, 'submissions'))).toBe(false);
  expect(porcelain(repo)).toBe('');
  const message = git(repo, 'log', '-1', '--format=%B');
  for (const text of [PENDING.company_name, PENDING.submitter_email, REJECTED.company_name, REJECTED.submitter_email]) expect(message).not.toContain(text);

  expect(await store().get(PENDING.id)).toEqual(PENDING);
  expect(server.lines.some((line) => line.includes('"submissions_migrated"') && line.includes('"count":2'))).toBe(true);
  // Reviewed long ago: the start-up sweep already removed the e-mail.
  const rejected = await store().get(REJECTED.id);
  const { submitter_email: removed, ...kept } = REJECTED;
  expect(rejected).toMatchObject(kept);
  expect(rejected?.submitter_email).toBeUndefined();
  expect(JSON.stringify(rejected)).not.toContain(removed);
  expect(rejected?.emailRemovedAt).toBeDefined();

  const cookie = await login(server.url, ADMIN);
  const listed = await call(server.url, 'GET', '/api/v1/admin/submissions?status=all', { cookie });
  expect((listed.body as { submissions: Array<{ id: string }> }).submissions.map((s) => s.id).sort()).toEqual([PENDING.id, REJECTED.id]);
  const pending = await call(server.url, 'GET', '/api/v1/admin/submissions', { cookie });
  expect((pending.body as { submissions: Array<{ id: string }> }).submissions.map((s) => s.id)).toEqual([PENDING.id]);
  expect(takeErrors(server)).toEqual([]);
});

test('idempotent: run again it commits nothing; files that come back are removed again without overwriting a record reviewed since', async () => {
  const head = git(repo, 'rev-parse', 'HEAD');
  expect(await migrateSubmissions(server.deps)).toBe(0);
  expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);

  const cookie = await login(server.url, ADMIN);
  const rejected = await call(server.url, 'POST', '/api/v1/admin/submissions/reject', { cookie, body: { id: PENDING.id, reason: 'Expired offer.' } });
  expect(rejected.status, rejected.text).toBe(200);
  // The old file back in the repository (pushed by an instance still running the old code, say).
  await server.deps.store.commit([{ path: `submissions/${PENDING.id}.md`, text: toMarkdown(PENDING, '') }], {
    message: 'An old instance writes a submission',
    author: { name: 'Editor', email: 'editor@example.com' },
  });

  expect(await migrateSubmissions(server.deps)).toBe(1);
  expect(changedFiles(repo)).toEqual([['D', `content/submissions/${PENDING.id}.md`]]);
  expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Move submissions out of the published content');
  expect(await store().get(PENDING.id)).toMatchObject({ status: 'rejected', rejectionReason: 'Expired offer.' });
  expect(takeErrors(server)).toEqual([]);
});
