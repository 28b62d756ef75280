/**
 * Store faults (issue 6): an instance SIGKILLed during a stream of writes to a remote-backed
 * store loses no acknowledged write (each is on the remote; the dead instance's unpublished
 * commit is dropped when it restarts), and a full or read-only file system under the content
 * store and the private data (submissions) gives 503 with nothing half-written, then recovers
 * once space or write access is back.
 * The file-system faults use a real tmpfs (mounting needs root, as CI has).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { cloneFor, createRemote, gitIn } from '../helpers/git-remote.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';
import { ADMIN, addAccount, call, login } from '../helpers/writes-harness.ts';
import { buildGenerated } from '../helpers/build-generated.ts';

const TODAY = new Date().toISOString().slice(0, 10);
let work: string;
let dataDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-store-faults-'));
  dataDir = join(work, 'data');
  addAccount(dataDir, ADMIN);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const deal = (slug: string) => ({ slug, title: `Fault ${slug}`, provider: 'Fault Co', category: 'cloud-credits', applicationUrl: `https://fault.example/${slug}` });

async function rebuild(contentDir: string, generatedDir: string): Promise<void> {
  await buildGenerated(contentDir, generatedDir, TODAY);
}

/** Temporary or hidden files under `dir` (what a half-done write would leave). */
function leftovers(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.name.startsWith('.') || entry.name.endsWith('.tmp'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('SIGKILL during writes to a remote-backed store', () => {
  test('every acknowledged write is on the remote; the restarted instance serves them and nothing else', async () => {
    const remote = await createRemote(join(FIXTURES, 'valid'), join(work, 'kill'));
    const clone = await cloneFor(remote, join(work, 'kill'), 'a');
    const env = { CONTENT_REMOTE: 'origin', CONTENT_PULL_SECONDS: '1', SESSION_SECRET: 'kill-test-secret-of-at-least-32-bytes' };
    let server: ChildServer = await startChildServer({ ...clone, dataDir, env });
    const cookie = await login(server.url, ADMIN);

    const acknowledged: string[] = [];
    /** Requests that failed while the server was still alive: never excused as "cut by the kill". */
    const failedBeforeKill: string[] = [];
    let sent = 0;
    let killed = false;
    const lane = async (name: string) => {
      for (let i = 0; !killed; i += 1) {
        const slug = `kill-${name}-${i}`;
        sent += 1;
        const result = await call(server.url, 'POST', '/api/v1/deals', { cookie, body: deal(slug) }).catch((error: unknown) => {
          if (!killed) failedBeforeKill.push(`${slug}: ${String(error)}`);
          return undefined;
        });
        if (!result) return; // the kill cut this request (checked above that it came after the kill)
        // Answered before the kill: it must have succeeded (and is checked on the remote below).
        expect(result.status, result.text).toBe(200);
        acknowledged.push(slug);
      }
    };
    const lanes = Promise.all(['a', 'b', 'c'].map(lane));
    // Kill once a few writes are acknowledged (not after a fixed time: a busy machine writes slower).
    const deadline = Date.now() + 30_000;
    while (acknowledged.length < 6 && failedBeforeKill.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    killed = true;
    server.process.kill('SIGKILL');
    await lanes;
    await server.exited;
    expect(failedBeforeKill).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(5);

    // On the remote: every acknowledged deal, each file whole and valid.
    const published = gitIn(remote, 'ls-tree', '--name-only', 'main', 'content/deals/').split('\n');
    for (const slug of acknowledged) expect(published).toContain(`content/deals/${slug}.md`);

    // Restart as `npm start` would (rebuild, serve): the store recovers, pulls, drops any commit the remote lacks.
    await rebuild(clone.contentDir, clone.generatedDir);
    server = await startChildServer({ ...clone, dataDir, env });
    try {
      await expect.poll(() => gitIn(clone.repo, 'rev-list', '--count', 'origin/main..HEAD').trim(), { timeout: 10_000 }).toBe('0');
      expect(gitIn(clone.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      expect(leftovers(clone.contentDir)).toEqual([]);
      for (const slug of acknowledged) expect((await fetch(`${server.url}/api/v1/deals?slug=${slug}`)).status).toBe(200);
      const built = runPipeline(await readContent(clone.contentDir), { today: TODAY });
      expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      console.log(`SIGKILL after ${sent} writes sent, ${acknowledged.length} acknowledged: all on the remote`);
    } finally {
      await server.stop();
    }
  });
});

describe('full and read-only content store', () => {
  let mount: string;
  let repo: string;
  let contentDir: string;
  let server: ChildServer;
  let cookie: string;

  beforeAll(async () => {
    mount = await mkdtemp(join(tmpdir(), 'deals-tmpfs-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mount]);
    contentDir = await gitContentCopy(join(FIXTURES, 'valid'), mount);
    repo = dirname(contentDir);
    const generatedDir = join(work, 'fs-generated');
    await rebuild(contentDir, generatedDir);
    // The private data (accounts, submissions) on the same small file system, so a full disk refuses submissions too.
    const mountedData = join(mount, 'data');
    addAccount(mountedData, ADMIN);
    server = await startChildServer({ contentDir, generatedDir, dataDir: mountedData });
    cookie = await login(server.url, ADMIN);
  });
  afterAll(async () => {
    await server?.stop();
    execFileSync('umount', [mount]);
    await rm(mount, { recursive: true, force: true });
  });

  const head = () => gitIn(repo, 'rev-parse', 'HEAD').trim();
  const expectNothingLeft = (before: string) => {
    expect(head()).toBe(before);
    expect(gitIn(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(leftovers(contentDir)).toEqual([]);
  };
  const submission = {
    company_name: 'Full Co',
    website_url: 'https://full.example',
    deal_value: '10% off',
    redemption_link: 'https://full.example/r',
    benefit_description: 'Ten percent off, for the disk-full test of the store.',
    category: 'saas',
  };

  test('a full disk: 503 for deal writes and submissions, nothing half-written; writes work again once space is back', async () => {
    const before = head();
    const filler = join(mount, 'filler');
    // Fill the file system to the last block.
    for (;;) {
      try {
        await appendFile(filler, Buffer.alloc(16 * 1024));
      } catch {
        break;
      }
    }
    const refused = await call(server.url, 'POST', '/api/v1/deals', { cookie, body: deal('full-disk') });
    expect(refused.status, refused.text).toBe(503);
    expect((refused.body as { code: string }).code).toBe('service_unavailable');
    const submitted = await call(server.url, 'POST', '/api/v1/submit-deal', { body: submission });
    expect(submitted.status, submitted.text).toBe(503);
    expect((await fetch(`${server.url}/api/v1/deals?slug=full-disk`)).status).toBe(404);
    await rm(filler);
    expectNothingLeft(before);
    expect(leftovers(join(mount, 'data'))).toEqual([]);
    expect((await call(server.url, 'POST', '/api/v1/submit-deal', { body: submission })).status).toBe(201);

    const accepted = await call(server.url, 'POST', '/api/v1/deals', { cookie, body: deal('after-full-disk') });
    expect(accepted.status, accepted.text).toBe(200);
    expect(gitIn(repo, 'log', '-1', '--format=%s')).toContain('after-full-disk');
  });

  test('a read-only file system: 503 for writes, reads unaffected, health says so; writable again after remount', async () => {
    const before = head();
    execFileSync('mount', ['-o', 'remount,ro', mount]);
    try {
      const refused = await call(server.url, 'POST', '/api/v1/deals', { cookie, body: deal('read-only') });
      expect(refused.status, refused.text).toBe(503);
      expect((await fetch(`${server.url}/api/v1/deals?limit=3`)).status).toBe(200);
      const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as { store: { writable: boolean } };
      expect(health.store.writable).toBe(false);
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mount]);
    }
    expectNothingLeft(before);
    const accepted = await call(server.url, 'POST', '/api/v1/deals', { cookie, body: deal('after-read-only') });
    expect(accepted.status, accepted.text).toBe(200);
  });
});
