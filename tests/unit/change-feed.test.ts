/**
 * The change feed's reading and keeping (functions/changes/change-feed.ts) over an in-memory
 * history standing in for the content store (the stores themselves are held to git by
 * tests/integration/http-git-store.test.ts and the real-server tests): a page reads only the
 * commits it needs, a repeated one reads nothing, a head that moved on lists only the new
 * commits, a rewritten history is listed anew; `since`, `kind` and `cursor` select; what lies
 * beyond the feed's reach makes the answer incomplete.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ChangeFeed } from '../../functions/changes/change-feed.ts';
import type { ContentStore, LineCommit, LineFile } from '../../functions/store/content-store.ts';
import { CHANGES_REACH, PAGE_COMMITS } from '../../src/schemas/query.ts';

type State = Record<string, string>;

const blob = (text: string) => createHash('sha1').update(text).digest('hex');
const deal = (id: string, title: string) => `---\nid: ${id}\ntitle: ${title}\nprovider: P\ncategory: c\nstatus: active\n---\n`;

/** A linear history of content states, oldest first, as a content store lists it, counting its calls. */
class MemoryHistory implements Pick<ContentStore, 'log' | 'commitFiles' | 'readBlobs'> {
  readonly commits: LineCommit[] = [];
  private readonly files = new Map<string, LineFile[]>();
  private readonly blobs = new Map<string, string>();
  calls = { log: [] as { head: string; after?: string | undefined }[], diffed: 0, read: 0 };

  constructor(states: State[], start = Date.parse('2026-11-01T00:00:00Z')) {
    let previous: State = {};
    states.forEach((state, i) => this.add(previous, (previous = state), `commit ${i}`, start + i * 3_600_000));
  }

  /** A new commit on top (`replace`: on top of the commit before the head, a rewritten history). */
  add(before: State, after: State, message: string, time: number, parent = this.commits.at(-1)?.commit): string {
    const commit = createHash('sha1')
      .update(`${message} ${time} ${parent ?? ''}`)
      .digest('hex');
    const files = [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .sort()
      .filter((path) => before[path] !== after[path])
      .map((path) => ({ path, ...(before[path] === undefined ? {} : { before: blob(before[path]) }), ...(after[path] === undefined ? {} : { after: blob(after[path]) }) }));
    for (const text of Object.values(after)) this.blobs.set(blob(text), text);
    this.files.set(commit, files);
    this.commits.push({ commit, ...(parent ? { parent } : {}), date: new Date(time).toISOString(), message, byStore: false });
    return commit;
  }

  async log(head: string, range: { after?: string | undefined; limit: number }): Promise<LineCommit[]> {
    this.calls.log.push({ head, after: range.after });
    const byId = new Map(this.commits.map((c) => [c.commit, c]));
    const out: LineCommit[] = [];
    for (let c = byId.get(head); c && c.commit !== range.after && out.length < range.limit; c = c.parent ? byId.get(c.parent) : undefined) out.push(c);
    return out;
  }

  async commitFiles(commits: readonly Pick<LineCommit, 'commit' | 'parent'>[]): Promise<LineFile[][]> {
    this.calls.diffed += commits.length;
    return commits.map((c) => this.files.get(c.commit) ?? []);
  }

  async readBlobs(ids: readonly string[]): Promise<(string | undefined)[]> {
    this.calls.read += ids.length;
    return ids.map((id) => this.blobs.get(id));
  }
}

const quiet = { warn: () => undefined };
/** States: a deal per step, `deals/d<n>.md`, each keeping the ones before. */
const growing = (n: number): State[] => Array.from({ length: n }, (_, i) => Object.fromEntries(Array.from({ length: i + 1 }, (__, j) => [`deals/d${j}.md`, deal(`d-${j}`, `Deal ${j}`)])));

async function page(feed: ChangeFeed, head: string, query: Parameters<ChangeFeed['page']>[1]) {
  const result = await feed.page(head, query);
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return result.page;
}

describe('reading only what a page needs, once', () => {
  test('the latest changes read the latest commits only; asked again, nothing is read or listed', async () => {
    const history = new MemoryHistory(growing(100));
    const feed = new ChangeFeed(history, quiet);
    const head = history.commits.at(-1)?.commit as string;
    const latest = await page(feed, head, { limit: 2 });
    expect(latest.changes.map((c) => c.slug)).toEqual(['d99', 'd98']);
    expect(latest.next).toBe(`${history.commits[97]?.commit}.0`);
    // One batch read: the 3 commits (of the 100 listed) a page of 2 and its `next` need, one new file each.
    expect([history.calls.diffed, history.calls.read]).toEqual([3, 3]);
    const read = history.calls.read;
    expect(await page(feed, head, { limit: 2 })).toEqual(latest);
    expect(history.calls.read).toBe(read);
    expect(history.calls.log).toHaveLength(1);
  });

  test('a head that moved on lists only the commits after the old one, and reads only theirs', async () => {
    const states = growing(20);
    const history = new MemoryHistory(states);
    const feed = new ChangeFeed(history, quiet);
    const old = history.commits.at(-1)?.commit as string;
    await page(feed, old, { limit: 100 });
    const read = history.calls.read;
    const last = states.at(-1) as State;
    const renamed: State = { ...last, 'deals/d0-new.md': last['deals/d0.md'] as string };
    delete renamed['deals/d0.md'];
    const head = history.add(last, renamed, 'Rename d0', Date.parse('2026-12-01T00:00:00Z'));
    const moved = await page(feed, head, { limit: 100 });
    expect(history.calls.log.at(-1)).toEqual({ head, after: old });
    expect(moved.changes[0]).toMatchObject({ slug: 'd0-new', previousSlug: 'd0', fields: ['slug'], change: 'updated' });
    expect(moved.changes).toHaveLength(21);
    // The renamed file's text is the same blob, read before: nothing new to read.
    expect(history.calls.read).toBe(read);
  });

  test('a rewritten history (the new head does not descend from the old) is listed anew', async () => {
    const states = growing(5);
    const history = new MemoryHistory(states);
    const feed = new ChangeFeed(history, quiet);
    const old = history.commits.at(-1)?.commit as string;
    await page(feed, old, { limit: 10 });
    const base = history.commits.at(-2) as LineCommit;
    const other = history.add(states[3] as State, { ...states[3], 'deals/x.md': deal('d-x', 'X') }, 'Instead', Date.parse('2026-12-01T00:00:00Z'), base.commit);
    const rewritten = await page(feed, other, { limit: 10 });
    expect(history.calls.log.slice(-2)).toEqual([
      { head: other, after: old },
      { head: other, after: undefined },
    ]);
    expect(rewritten.changes.map((c) => c.slug)).toEqual(['x', 'd3', 'd2', 'd1', 'd0']);
  });

  test('two pages asked at once for a new head list it once', async () => {
    const history = new MemoryHistory(growing(10));
    const feed = new ChangeFeed(history, quiet);
    const head = history.commits.at(-1)?.commit as string;
    const [a, b] = await Promise.all([page(feed, head, { limit: 3 }), page(feed, head, { limit: 3 })]);
    expect(a).toEqual(b);
    expect(history.calls.log).toHaveLength(1);
  });
});

describe('selecting', () => {
  const states = growing(10);
  const history = new MemoryHistory(states);
  const feed = new ChangeFeed(history, quiet);
  const head = history.commits.at(-1)?.commit as string;
  const at = (i: number) => history.commits[i] as LineCommit;

  test('since a commit (or its prefix): the changes after it; since a date: at or after it', async () => {
    expect((await page(feed, head, { since: { commit: at(6).commit }, limit: 50 })).changes.map((c) => c.slug)).toEqual(['d9', 'd8', 'd7']);
    expect((await page(feed, head, { since: { commit: at(6).commit.slice(0, 6) }, limit: 50 })).changes).toHaveLength(3);
    expect((await page(feed, head, { since: { date: Date.parse(at(8).date) }, limit: 50 })).changes.map((c) => c.slug)).toEqual(['d9', 'd8']);
    expect(await feed.page(head, { since: { commit: 'ffffffff' }, limit: 5 })).toMatchObject({ ok: false, problem: { name: 'since' } });
  });

  test('a cursor goes on where the page before ended; kind filters; an unknown cursor is a problem', async () => {
    const first = await page(feed, head, { limit: 4 });
    const rest = await page(feed, head, { limit: 50, cursor: { commit: (first.next as string).slice(0, 40), index: 0 } });
    expect([...first.changes, ...rest.changes].map((c) => c.slug)).toEqual(['d9', 'd8', 'd7', 'd6', 'd5', 'd4', 'd3', 'd2', 'd1', 'd0']);
    expect((await page(feed, head, { kind: 'startup', limit: 5 })).changes).toEqual([]);
    expect(await feed.page(head, { cursor: { commit: 'f'.repeat(40), index: 0 }, limit: 5 })).toMatchObject({ ok: false, problem: { name: 'cursor' } });
  });

  test('beyond the reach: a walk that runs to the end of what is kept, with older commits beyond, is incomplete', async () => {
    const long = new MemoryHistory([]);
    let previous: State = {};
    for (let i = 0; i < CHANGES_REACH + 2; i++) {
      const state = { 'deals/a.md': deal('d-a', `Title ${i % 2}`) };
      long.add(previous, state, `c${i}`, Date.parse('2020-01-01T00:00:00Z') + i * 60_000);
      previous = state;
    }
    const longFeed = new ChangeFeed(long, quiet);
    const top = long.commits.at(-1)?.commit as string;
    // A full page says nothing of the end; the last page of a walk past the reach does.
    expect((await page(longFeed, top, { limit: 1 })).complete).toBe(true);
    for (const since of [undefined, { date: Date.parse('2019-01-01') }]) {
      // Nothing matches: pages of PAGE_COMMITS commits read, each empty, each with a `next`, to the end of the reach.
      let last = await page(longFeed, top, { limit: 1, kind: 'startup', since });
      let pages = 1;
      for (; last.next; pages++) {
        expect([last.changes, last.complete]).toEqual([[], true]);
        last = await page(longFeed, top, { limit: 1, kind: 'startup', since, cursor: { commit: last.next.slice(0, 40), index: 0 } });
      }
      expect(pages).toBe(Math.ceil(CHANGES_REACH / PAGE_COMMITS));
      expect(last.complete).toBe(false);
    }
    expect(long.calls.log.reduce((n, call) => n + (call.after ? 1 : 0), 0)).toBe(0);
    expect((await page(longFeed, top, { limit: 1, since: { date: Date.parse(long.commits.at(-3)?.date as string) } })).complete).toBe(true);
    expect((await page(longFeed, top, { limit: 1, since: { commit: long.commits.at(-10)?.commit as string } })).complete).toBe(true);
  });
});
