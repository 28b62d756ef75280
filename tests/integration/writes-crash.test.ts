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
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Deal } from '../../src/schemas/deal.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';
import { ADMIN, PROJECT_ROOT, addAccount, call, git, login, porcelain, type JsonResult } from '../helpers/writes-harness.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';

const TODAY = new Date().toISOString().slice(0, 10);

let work: string;
let contentDir: string;
let repo: string;
let generatedDir: string;
let dataDir: string;
let child: RunningChild | undefined;

type RunningChild = ChildServer;

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
  return (await buildGenerated(contentDir, generatedDir, TODAY)).deals;
}

/** Start `scripts/serve.ts` as a child process on this test's repository. */
function startChild(): Promise<RunningChild> {
  return startChildServer({ contentDir, generatedDir, dataDir, env: { DIST_DIR: join(PROJECT_ROOT, 'dist-test-crash') } });
}

async function stopChild(running: RunningChild): Promise<void> {
  await running.stop();
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

/** What the repository must show for one deal after the restart. */
type Expectation =
  /** Created (and answered 2xx): committed, its file parses, same title (and id, when known). */
  | { kind: 'present'; slug: string; id?: string; title: string }
  /** Deleted (answered 2xx): gone from HEAD and from the disk. */
  | { kind: 'absent'; slug: string }
  /** Renamed (answered 2xx): only the new slug exists, with the same id. */
  | { kind: 'renamed'; from: string; to: string; id: string; title: string }
  /** A rename cut by the kill: exactly one of the two files exists, with the id. */
  | { kind: 'oneOf'; slugs: [string, string]; id: string }
  /** A delete cut by the kill: either state is fine (the general checks still apply). */
  | { kind: 'any' };

interface StreamResult {
  expectations: Expectation[];
  /** Every bulk request sent, answered or not: each must be all-or-nothing. */
  bulks: string[][];
  /** Writes answered 2xx. */
  acks: number;
}

const is2xx = (status: number): boolean => status >= 200 && status < 300;

/**
 * Fire writes from four lanes at once (each lane sequential) until `shouldKill` says so, then
 * SIGKILL the server. Lane 0 creates (every 5th request a bulk of three), lane 1 creates,
 * lane 2 creates then deletes, lane 3 creates then renames.
 */
async function streamAndKill(running: RunningChild, cookie: string, round: number, shouldKill: (acks: number, elapsedMs: number) => boolean): Promise<StreamResult> {
  const expectations = new Map<string, Expectation>();
  const bulks: string[][] = [];
  const started = Date.now();
  let acks = 0;
  let killed = false;
  let counter = 0;
  const kill = () => {
    if (killed) return;
    killed = true;
    running.process.kill('SIGKILL');
  };
  const timer = setInterval(() => {
    if (shouldKill(acks, Date.now() - started)) kill();
  }, 2);
  const deal = (slug: string) => ({ slug, title: `Crash round ${round} ${slug}`, provider: 'Crash Co', category: 'cloud-credits', applicationUrl: `https://crash.example/${slug}` });
  /** One request; undefined when the kill cut it, an error for any other refusal. */
  const send = async (method: string, path: string, body?: unknown): Promise<JsonResult | undefined> => {
    try {
      const result = await call(running.url, method, path, { cookie, body });
      if (is2xx(result.status)) {
        acks++;
        return result;
      }
      if (killed) return undefined;
      throw new Error(`${method} ${path} refused: ${result.status} ${result.text}`);
    } catch (error) {
      // A request cut by the kill fails at the socket; anything else is a real failure.
      if (killed) return undefined;
      const state = `exit code ${running.process.exitCode}, signal ${running.process.signalCode}`;
      throw new Error(`${method} ${path} failed before the kill (server ${state}): ${String(error)} ${String((error as { cause?: unknown }).cause)}\n${running.output.join('\n').slice(-3000)}`, {
        cause: error,
      });
    }
  };

  const lane = async (laneNo: number): Promise<void> => {
    while (!killed) {
      const n = counter++;
      const key = `r${round}-l${laneNo}-n${n}`;
      const slug = `crash-${key}`;
      if (laneNo === 0 && n % 5 === 4) {
        const group = [`${slug}-a`, `${slug}-b`, `${slug}-c`];
        bulks.push(group);
        if (await send('POST', '/api/v1/deals', { deals: group.map(deal) })) {
          for (const s of group) expectations.set(s, { kind: 'present', slug: s, title: deal(s).title });
        }
      } else {
        const created = await send('POST', '/api/v1/deals', deal(slug));
        if (created) {
          const id = (created.body as { deal: Deal }).deal.id;
          const title = deal(slug).title;
          expectations.set(key, { kind: 'present', slug, id, title });
          if (laneNo === 2 && !killed) {
            expectations.set(key, { kind: 'any' });
            if (await send('DELETE', `/api/v1/deals?id=${id}`)) expectations.set(key, { kind: 'absent', slug });
          } else if (laneNo === 3 && !killed) {
            const to = `${slug}-moved`;
            expectations.set(key, { kind: 'oneOf', slugs: [slug, to], id });
            if (await send('PUT', '/api/v1/deals', { id, slug: to })) expectations.set(key, { kind: 'renamed', from: slug, to, id, title });
          }
        }
      }
      if (shouldKill(acks, Date.now() - started)) kill();
    }
  };
  try {
    await Promise.all([0, 1, 2, 3].map((n) => lane(n)));
  } finally {
    clearInterval(timer);
    kill();
    await running.exited;
  }
  return { expectations: [...expectations.values()], bulks, acks };
}

/** Checks on the repository after a restart (the store has opened and recovered). */
function checkRepository(expectations: readonly Expectation[], bulks: readonly string[][]): void {
  expect(porcelain(repo)).toBe('');
  expect(leftovers(contentDir)).toEqual([]);
  expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(false);
  expect(git(repo, 'rev-list', '--merges', 'HEAD').trim()).toBe('');

  const inHead = new Set(git(repo, 'ls-tree', '-r', '--name-only', 'HEAD', 'content/deals').trim().split('\n').filter(Boolean));
  const pathOf = (slug: string) => `content/deals/${slug}.md`;
  const fileData = (slug: string) => matter(readFileSync(join(contentDir, 'deals', `${slug}.md`), 'utf8')).data as Record<string, unknown>;
  const expectPresent = (slug: string, title: string | undefined, id: string | undefined) => {
    expect(inHead.has(pathOf(slug)), `acknowledged ${slug} is not in HEAD`).toBe(true);
    expect(git(repo, 'log', '--format=%H', '--', pathOf(slug)).trim(), `no commit for ${slug}`).not.toBe('');
    const data = fileData(slug);
    if (title !== undefined) expect(data.title).toBe(title);
    if (id !== undefined) expect(data.id).toBe(id);
  };
  const expectAbsent = (slug: string) => {
    expect(inHead.has(pathOf(slug)), `${slug} should be gone from HEAD`).toBe(false);
    expect(existsSync(join(contentDir, 'deals', `${slug}.md`)), `${slug} should be gone from disk`).toBe(false);
  };
  for (const e of expectations) {
    if (e.kind === 'present') expectPresent(e.slug, e.title, e.id);
    else if (e.kind === 'absent') expectAbsent(e.slug);
    else if (e.kind === 'renamed') {
      expectAbsent(e.from);
      expectPresent(e.to, e.title, e.id);
    } else if (e.kind === 'oneOf') {
      const present = e.slugs.filter((slug) => inHead.has(pathOf(slug)));
      expect(present, `interrupted rename ${e.slugs.join(' -> ')}`).toHaveLength(1);
      expect(fileData(present[0] as string).id).toBe(e.id);
    }
  }
  for (const group of bulks) {
    const present = group.filter((s) => inHead.has(pathOf(s)));
    expect([0, group.length], `bulk ${group.join(',')} is partly committed`).toContain(present.length);
  }
  // Every deal file on disk is committed exactly as it is (no half-written content).
  const onDisk = readdirSync(join(contentDir, 'deals')).map((name) => `content/deals/${name}`);
  expect(onDisk.sort()).toEqual([...inHead].sort());
}

/** The restarted server answers every acknowledged create and rename, and 404 for every acknowledged delete. */
async function checkServed(url: string, expectations: readonly Expectation[]): Promise<void> {
  const status = async (slug: string) => (await call(url, 'GET', `/api/v1/deals?slug=${slug}`)).status;
  for (const e of expectations) {
    if (e.kind === 'present') expect(await status(e.slug), e.slug).toBe(200);
    else if (e.kind === 'absent') expect(await status(e.slug), e.slug).toBe(404);
    else if (e.kind === 'renamed') {
      expect(await status(e.from), e.from).toBe(404);
      const result = await call(url, 'GET', `/api/v1/deals?id=${e.id}`);
      expect((result.body as { deal?: Deal }).deal?.slug).toBe(e.to);
    }
  }
}

describe('SIGKILL during a stream of admin writes', () => {
  test('three rounds: acknowledged creates, deletes and renames survive, nothing half-written remains, the content builds and is served after restart', async () => {
    const journal = () => join(repo, '.git', 'deals-store-journal.json');
    const killPoints: Array<{ name: string; shouldKill: (acks: number, elapsedMs: number) => boolean }> = [
      {
        // While the first write is inside the store: its file is on disk, its commit not yet made.
        name: 'with a written but uncommitted file',
        shouldKill: (_acks, elapsed) => elapsed > 2000 || (existsSync(journal()) && readdirSync(join(contentDir, 'deals')).some((n) => n.startsWith('crash-r0-'))),
      },
      { name: 'at the 6th acknowledgement', shouldKill: (acks) => acks >= 6 },
      { name: 'at the 17th acknowledgement', shouldKill: (acks) => acks >= 17 },
    ];
    const all: Expectation[] = [];
    const allBulks: string[][] = [];
    let total = 0;
    let interrupted = 0;

    for (const [round, point] of killPoints.entries()) {
      await buildContent();
      child = await startChild();
      // The restarted server serves the outcome of every write acknowledged in earlier rounds.
      await checkServed(child.url, all);

      const cookie = await login(child.url, ADMIN);
      const { expectations, bulks, acks } = await streamAndKill(child, cookie, round, point.shouldKill);
      total += acks;
      all.push(...expectations);
      allBulks.push(...bulks);
      // Was a write caught between "file on disk" and "committed"? (Then recovery has work to do.)
      if (porcelain(repo) !== '' || leftovers(contentDir).length > 0) interrupted++;

      // Restart on the same repository: opening the store rolls back the interrupted write.
      child = await startChild();
      checkRepository(all, allBulks);
      await stopChild(child);
      // The whole content tree builds, with every acknowledged deal in it.
      const slugs = new Set((await buildContent()).map((d) => d.slug));
      for (const e of all) {
        if (e.kind === 'present') expect(slugs.has(e.slug), `${e.slug} (killed ${point.name})`).toBe(true);
        if (e.kind === 'renamed') expect(slugs.has(e.to), `${e.to} (killed ${point.name})`).toBe(true);
      }
    }

    // The writes really were cut mid-stream, and some were acknowledged before each kill.
    expect(total).toBeGreaterThanOrEqual(6 + 17);
    // At least the first round left a half-done write for the restart to roll back.
    expect(interrupted).toBeGreaterThanOrEqual(1);
    expect(all.some((e) => e.kind === 'renamed')).toBe(true);
    expect(all.some((e) => e.kind === 'absent')).toBe(true);

    child = await startChild();
    await checkServed(child.url, all);
    await stopChild(child);
  }, 120_000);
});
