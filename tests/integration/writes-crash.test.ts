/**
 * Crash safety of the content store (DESIGN "Writes: the content store": a 2xx means the change
 * is on disk and committed; atomic writes; an interrupted write is rolled back when the store
 * opens). The real server runs as a child process (`scripts/serve.ts`) on a temporary git copy
 * of the fixture; a stream of admin creates (four sequential lanes running side by side, with
 * an occasional bulk create) is cut by SIGKILL at a different point in each round. After a
 * restart on the same repository: every acknowledged write is committed and its file parses
 * and validates, nothing half-written or temporary is left, the work tree is clean, the whole
 * content tree builds, and the restarted server serves every acknowledged deal.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';
import { ADMIN, PROJECT_ROOT, addAccount, call, git, login, porcelain } from '../helpers/writes-harness.ts';

const TODAY = new Date().toISOString().slice(0, 10);

let work: string;
let contentDir: string;
let repo: string;
let generatedDir: string;
let dataDir: string;
let child: RunningChild | undefined;

interface RunningChild {
  process: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output: string[];
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-crash-'));
  contentDir = await gitContentCopy(join(FIXTURES, 'valid'), work);
  repo = dirname(contentDir);
  generatedDir = join(work, 'generated');
  dataDir = join(work, 'data');
  addAccount(dataDir, ADMIN);
});
afterAll(async () => {
  if (child && child.process.exitCode === null && child.process.signalCode === null) {
    child.process.kill('SIGKILL');
    await child.exited;
  }
  await rm(work, { recursive: true, force: true });
});

/** Build the content tree as `npm start` would before serving; fails on any content error. */
async function buildContent(): Promise<Deal[]> {
  const built = runPipeline(await readContent(contentDir), { today: TODAY });
  expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(built.value).toBeDefined();
  if (!built.value) throw new Error('content does not build');
  await rm(generatedDir, { recursive: true, force: true });
  await emitCatalog(generatedDir, built.value);
  return built.value.data.deals;
}

/** Start `scripts/serve.ts` as a child process and wait for it to report its address. */
async function startChild(): Promise<RunningChild> {
  const output: string[] = [];
  const proc = fork(join(PROJECT_ROOT, 'scripts', 'serve.ts'), [], {
    cwd: PROJECT_ROOT,
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      CONTENT_DIR: contentDir,
      GENERATED_DIR: generatedDir,
      DIST_DIR: join(PROJECT_ROOT, 'dist-test-crash'),
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
    },
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 200) output.shift();
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output.join('')}`)), 20_000);
    proc.on('message', (message: unknown) => {
      const listening = (message as { listening?: unknown })?.listening;
      if (typeof listening === 'string') {
        clearTimeout(timer);
        resolve(listening);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${output.join('')}`));
    });
  });
  return { process: proc, url, exited, output };
}

async function stopChild(running: RunningChild): Promise<void> {
  running.process.kill('SIGTERM');
  await running.exited;
}

/** Every file or folder under `dir` whose name marks a temporary or hidden leftover. */
function leftovers(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name.startsWith('.') || entry.name.endsWith('.tmp')) found.push(path);
    if (entry.isDirectory()) found.push(...leftovers(path));
  }
  return found;
}

interface Acked {
  slug: string;
  id: string;
  title: string;
}

/**
 * Fire creates from four lanes at once (each lane sequential) until `shouldKill` says so,
 * then SIGKILL the server. Returns the writes that were answered 2xx, and every bulk request
 * sent (answered or not), for the all-or-nothing check.
 */
async function streamAndKill(running: RunningChild, cookie: string, round: number, shouldKill: (acks: number, elapsedMs: number) => boolean): Promise<{ acked: Acked[]; bulks: string[][] }> {
  const acked: Acked[] = [];
  const bulks: string[][] = [];
  const started = Date.now();
  let killed = false;
  let counter = 0;
  const kill = () => {
    if (killed) return;
    killed = true;
    running.process.kill('SIGKILL');
  };
  const timer = setInterval(() => {
    if (shouldKill(acked.length, Date.now() - started)) kill();
  }, 2);

  const lane = async (laneNo: number): Promise<void> => {
    while (!killed) {
      const n = counter++;
      const slug = `crash-r${round}-l${laneNo}-n${n}`;
      const deal = (s: string) => ({ slug: s, title: `Crash round ${round} ${s}`, provider: 'Crash Co', category: 'cloud-credits', applicationUrl: `https://crash.example/${s}` });
      try {
        if (laneNo === 0 && n % 5 === 4) {
          const group = [`${slug}-a`, `${slug}-b`, `${slug}-c`];
          bulks.push(group);
          const result = await call(running.url, 'POST', '/api/v1/deals', { cookie, body: { deals: group.map(deal) } });
          if (result.status >= 200 && result.status < 300) {
            for (const s of group) acked.push({ slug: s, id: '', title: deal(s).title });
          } else if (!killed) {
            throw new Error(`bulk refused: ${result.status} ${result.text}`);
          }
        } else {
          const result = await call(running.url, 'POST', '/api/v1/deals', { cookie, body: deal(slug) });
          if (result.status >= 200 && result.status < 300) {
            acked.push({ slug, id: (result.body as { deal: Deal }).deal.id, title: deal(slug).title });
          } else if (!killed) {
            throw new Error(`create refused: ${result.status} ${result.text}`);
          }
        }
      } catch (error) {
        // A request cut by the kill fails at the socket; anything else is a real failure.
        if (!killed) throw error;
      }
      if (shouldKill(acked.length, Date.now() - started)) kill();
    }
  };
  try {
    await Promise.all([0, 1, 2, 3].map((n) => lane(n)));
  } finally {
    clearInterval(timer);
    kill();
    await running.exited;
  }
  return { acked, bulks };
}

/** Checks on the repository after a restart (the store has opened and recovered). */
function checkRepository(acked: readonly Acked[], bulks: readonly string[][]): void {
  expect(porcelain(repo)).toBe('');
  expect(leftovers(contentDir)).toEqual([]);
  expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(false);
  expect(git(repo, 'rev-list', '--merges', 'HEAD').trim()).toBe('');

  const inHead = new Set(
    git(repo, 'ls-tree', '-r', '--name-only', 'HEAD', 'content/deals')
      .trim()
      .split('\n')
      .filter(Boolean),
  );
  for (const write of acked) {
    const path = `content/deals/${write.slug}.md`;
    expect(inHead.has(path), `acknowledged ${write.slug} is not in HEAD`).toBe(true);
    expect(git(repo, 'log', '--format=%H', '--', path).trim(), `no commit for ${write.slug}`).not.toBe('');
    const file = matter(readFileSync(join(contentDir, 'deals', `${write.slug}.md`), 'utf8'));
    expect(file.data.title).toBe(write.title);
    if (write.id) expect(file.data.id).toBe(write.id);
  }
  for (const group of bulks) {
    const present = group.filter((s) => inHead.has(`content/deals/${s}.md`));
    expect([0, group.length], `bulk ${group.join(',')} is partly committed`).toContain(present.length);
  }
  // Every deal file on disk is committed exactly as it is (no half-written content).
  const onDisk = readdirSync(join(contentDir, 'deals')).map((name) => `content/deals/${name}`);
  expect(onDisk.sort()).toEqual([...inHead].sort());
}

describe('SIGKILL during a stream of admin creates', () => {
  test('three rounds: acknowledged writes survive, nothing half-written remains, the content builds and is served after restart', async () => {
    const killPoints: Array<{ name: string; shouldKill: (acks: number, elapsedMs: number) => boolean }> = [
      {
        // While the first write is inside the store: its file is on disk, its commit not yet made.
        name: 'with a written but uncommitted file',
        shouldKill: (_acks, elapsed) => elapsed > 2000 || (existsSync(journal()) && readdirSync(join(contentDir, 'deals')).some((n) => n.startsWith('crash-r0-'))),
      },
      { name: 'at the 6th acknowledgement', shouldKill: (acks) => acks >= 6 },
      { name: 'at the 17th acknowledgement', shouldKill: (acks) => acks >= 17 },
    ];
    const allAcked: Acked[] = [];
    const allBulks: string[][] = [];
    let total = 0;
    let interrupted = 0;
    const journal = () => join(repo, '.git', 'deals-store-journal.json');

    for (const [round, point] of killPoints.entries()) {
      const deals = await buildContent();
      child = await startChild();
      // The restarted server serves every deal acknowledged in earlier rounds.
      for (const write of allAcked) {
        const result = await call(child.url, 'GET', `/api/v1/deals?slug=${write.slug}`);
        expect(result.status, `${write.slug} after restart`).toBe(200);
      }
      expect(deals.length).toBeGreaterThanOrEqual(10 + allAcked.length);

      const cookie = await login(child.url, ADMIN);
      const { acked, bulks } = await streamAndKill(child, cookie, round, point.shouldKill);
      total += acked.length;
      allAcked.push(...acked);
      allBulks.push(...bulks);

      // Was a write caught between "file on disk" and "committed"? (Then recovery has work to do.)
      if (porcelain(repo) !== '' || leftovers(contentDir).length > 0) interrupted++;
      // Restart on the same repository: opening the store rolls back the interrupted write.
      child = await startChild();
      checkRepository(allAcked, allBulks);
      await stopChild(child);
      const rebuilt = await buildContent();
      const slugs = new Set(rebuilt.map((d) => d.slug));
      for (const write of allAcked) expect(slugs.has(write.slug), `${write.slug} (killed ${point.name})`).toBe(true);
    }

    // The writes really were cut mid-stream, and some were acknowledged before each kill.
    expect(total).toBeGreaterThanOrEqual(6 + 17);
    // At least the first round left a half-done write for the restart to roll back.
    expect(interrupted).toBeGreaterThanOrEqual(1);

    child = await startChild();
    for (const write of allAcked) {
      const result = await call(child.url, 'GET', `/api/v1/deals?slug=${write.slug}`);
      expect(result.status, write.slug).toBe(200);
      expect((result.body as { deal: Deal }).deal.title).toBe(write.title);
    }
    await stopChild(child);
  });
});
