/**
 * The change feed of the content's history (GET /changes, /changes.atom, MCP `recent_changes`):
 * the branch's first-parent line as the content store lists it, kept per head commit, and
 * each commit's public changes (src/catalog/change-entries.ts), read when first asked for.
 *
 * - The line: the newest `CHANGES_REACH` commits (ids, parents, dates, subjects), listed once
 *   per head with one `git log` (no diffs: thousands of commits in milliseconds). When the head
 *   moves on, only the commits after the old head are listed and put in front (`git log
 *   old..new`); a head that does not descend from it is listed anew.
 * - A page walks the line from the head (or a cursor) back to `since`, reading the changes of
 *   a batch of commits at a time (their files: one `git diff-tree --stdin`, about a millisecond
 *   a commit in a folder of 5,000 files; their texts: one `git cat-file --batch`), each batch
 *   about what the page still needs, until it is full or `PAGE_COMMITS` were read: the latest
 *   changes cost only the latest commits, and no page costs more than its share.
 * - A commit's changes never change: they are kept by commit id (at most `KEPT_CHANGES`
 *   changes; the commits read longest ago go first and are read again when asked for), the
 *   file versions they came from by blob id (a file changed twice is read once between).
 */
import { LRUCache } from 'lru-cache';
import type { ChangeEntry, RecordText } from '../../src/catalog/change-entries.ts';
import type { Change } from '../../src/schemas/answers.ts';
import { CHANGES_PARAMS, CHANGES_REACH, PAGE_COMMITS, type ChangesSince, type ParamProblem } from '../../src/schemas/query.ts';
import type { Logger } from '../ops/log.ts';
import type { ContentStore, LineCommit, LineFile } from '../store/content-store.ts';
import { WriteQueue } from '../store/write-queue.ts';

/** What a page asks for: changes after `since`, of one `kind`, `limit` of them, from `cursor` on. */
export interface ChangeQuery {
  since?: ChangesSince | undefined;
  kind?: Change['kind'] | undefined;
  limit: number;
  cursor?: { commit: string; index: number } | undefined;
}

export interface ChangePage {
  head: string;
  /** The head commit's date (UTC): when the feed last moved. */
  date: string | undefined;
  changes: ChangeEntry[];
  next?: string;
  /** False when the walk reached the oldest commit the feed keeps while older ones exist. */
  complete: boolean;
}

/** The most changes kept read (a few hundred bytes each). */
const KEPT_CHANGES = 50_000;
/** The most file versions kept parsed between reads (records with their description). */
const KEPT_VERSIONS = 2_000;
/** Commits read together at first; later batches are sized by the rate of changes seen. */
const FIRST_BATCH = 32;
/**
 * How a commit's files become changes: loaded with the first page asked for, not at start-up. It
 * parses record files with the content pipeline, whose modules no other read needs
 * (http/loaded-on-first-use.ts).
 */
const changeEntries = () => import('../../src/catalog/change-entries.ts');

interface Line {
  head: string;
  /** Newest first. */
  commits: LineCommit[];
  /** Commit dates in ms, by position. */
  times: number[];
  /** Listed down to the first commit: nothing older exists. */
  ended: boolean;
}

export class ChangeFeed {
  private readonly store: Pick<ContentStore, 'log' | 'commitFiles' | 'readBlobs'>;
  private readonly log: Pick<Logger, 'warn'>;
  private line: Line | undefined;
  /** New heads listed one at a time (two requests for a new head list it once). */
  private readonly listing = new WriteQueue();
  private readonly changes = new Map<string, ChangeEntry[]>();
  private keptChanges = 0;
  /** Commits whose changes are being read, by id: the read that will have them. */
  private readonly reading = new Map<string, Promise<Map<string, ChangeEntry[]>>>();
  private readonly versions = new LRUCache<string, RecordText>({ max: KEPT_VERSIONS });

  constructor(store: Pick<ContentStore, 'log' | 'commitFiles' | 'readBlobs'>, log: Pick<Logger, 'warn'>) {
    this.store = store;
    this.log = log;
  }

  /**
   * One page of the changes on the line of `head` (the commit served); a problem with `since`
   * or `cursor` (a commit the line does not have) instead of a page.
   * @example await feed.page(head, { since: { date: Date.parse('2026-11-20') }, limit: 50 })
   */
  async page(head: string, query: ChangeQuery): Promise<{ ok: true; page: ChangePage } | { ok: false; problem: ParamProblem }> {
    const line = await this.lineAt(head);
    const { since, cursor } = query;
    let start = 0;
    if (cursor) {
      start = line.commits.findIndex((c) => c.commit === cursor.commit);
      if (start === -1) return { ok: false, problem: problem('cursor', 'it names a commit the feed does not keep (any more); start again without it') };
    }
    let end = line.commits.length;
    let complete = line.ended;
    if (since && 'commit' in since) {
      const found = sinceIndex(line, since.commit);
      if (typeof found !== 'number') return { ok: false, problem: found };
      [end, complete] = [found, true];
    } else if (since) {
      // Back to the first commit made before the instant (first-parent dates only go back, clock skew aside).
      const older = line.times.findIndex((time) => time < since.date);
      if (older !== -1) [end, complete] = [older, true];
    }

    const found: { change: ChangeEntry; at: string }[] = [];
    let i = start;
    for (let size = Math.min(FIRST_BATCH, query.limit + 1); i < end && i - start < PAGE_COMMITS && found.length <= query.limit;) {
      const batch = line.commits.slice(i, Math.min(end, i + size, start + PAGE_COMMITS));
      const read = await this.read(batch);
      for (const [j, commit] of batch.entries()) {
        const changes = read[j] as ChangeEntry[];
        for (let k = commit.commit === cursor?.commit ? cursor.index : 0; k < changes.length && found.length <= query.limit; k++) {
          const change = changes[k] as ChangeEntry;
          if (!query.kind || change.kind === query.kind) found.push({ change, at: `${commit.commit}.${k}` });
        }
      }
      i += batch.length;
      // The next batch: about as many commits as the rest of the page needs at the rate seen so far.
      const rate = found.length / (i - start);
      size = rate > 0 ? Math.ceil(((query.limit + 1 - found.length) / rate) * 1.25) + 4 : size * 2;
    }
    // A full page, or its share of commits read: the rest follows from `next`.
    const next = found[query.limit]?.at ?? (i < end && i - start >= PAGE_COMMITS ? `${(line.commits[i] as LineCommit).commit}.0` : undefined);
    const date = line.commits[0]?.date;
    const { utcInstant } = await changeEntries();
    // Only a walk to the end of what is kept can be incomplete.
    return { ok: true, page: { head, date: date && utcInstant(date), changes: found.slice(0, query.limit).map((f) => f.change), ...(next ? { next } : {}), complete: complete || next !== undefined } };
  }

  // --- internal ---

  /** The line of `head`: kept, moved on from the one kept, or listed anew. */
  private lineAt(head: string): Promise<Line> {
    if (this.line?.head === head) return Promise.resolve(this.line);
    return this.listing.run(async () => {
      const kept = this.line;
      if (kept?.head === head) return kept;
      let commits: LineCommit[] | undefined;
      if (kept) {
        const newer = await this.store.log(head, { after: kept.head, limit: CHANGES_REACH });
        if (newer.at(-1)?.parent === kept.head) commits = [...newer, ...kept.commits].slice(0, CHANGES_REACH);
      }
      commits ??= await this.store.log(head, { limit: CHANGES_REACH });
      const line = { head, commits, times: commits.map((c) => Date.parse(c.date)), ended: commits.length === 0 || commits.at(-1)?.parent === undefined };
      this.line = line;
      return line;
    });
  }

  /** The changes of each commit: kept, being read, or read now (those not read yet, together). */
  private async read(commits: readonly LineCommit[]): Promise<ChangeEntry[][]> {
    // Taken now: what is kept may go while this waits for git.
    const kept = commits.map((c) => this.changes.get(c.commit));
    const missing = commits.filter((c, i) => !kept[i] && !this.reading.has(c.commit));
    const reading = missing.length > 0 ? this.readNow(missing) : undefined;
    for (const c of missing) this.reading.set(c.commit, reading as Promise<Map<string, ChangeEntry[]>>);
    try {
      return await Promise.all(commits.map(async (c, i) => kept[i] ?? (await this.reading.get(c.commit))?.get(c.commit) ?? []));
    } finally {
      for (const c of missing) this.reading.delete(c.commit);
    }
  }

  private async readNow(commits: readonly LineCommit[]): Promise<Map<string, ChangeEntry[]>> {
    const { commitChanges, readRecordText, recordKind } = await changeEntries();
    const files = (await this.store.commitFiles(commits)).map((changed) => changed.filter((f) => recordKind(f.path)));
    // Each blob once: parsed before (taken now, as it may go from the cache meanwhile), or read with a path to read it as.
    const versions = new Map<string, RecordText>();
    const wanted = new Map<string, string>();
    for (const file of files.flat()) {
      for (const blob of [file.before, file.after]) {
        const known = blob === undefined ? undefined : this.versions.get(blob);
        if (blob && known) versions.set(blob, known);
        else if (blob) wanted.set(blob, file.path);
      }
    }
    const texts = wanted.size > 0 ? await this.store.readBlobs([...wanted.keys()]) : [];
    [...wanted].forEach(([blob, path], i) => {
      const text = texts[i];
      const version: RecordText = text === undefined ? { problem: 'the file could not be read from the history' } : readRecordText(path, text);
      versions.set(blob, version);
      this.versions.set(blob, version);
    });
    const versionOf = (blob: string | undefined) => (blob === undefined ? undefined : versions.get(blob));
    const read = new Map<string, ChangeEntry[]>();
    commits.forEach((c, i) => {
      const { changes, skipped } = commitChanges(
        c,
        (files[i] as LineFile[]).map((f) => ({ path: f.path, before: versionOf(f.before), after: versionOf(f.after) })),
      );
      for (const file of skipped) this.log.warn('change_feed_skipped', { commit: c.commit, path: file.path, reason: file.reason });
      read.set(c.commit, changes);
      this.keep(c.commit, changes);
    });
    return read;
  }

  /** Keep a commit's changes; the commits read longest ago go when there are too many. */
  private keep(commit: string, changes: ChangeEntry[]): void {
    this.changes.set(commit, changes);
    this.keptChanges += changes.length;
    for (const [old, dropped] of this.changes) {
      if (this.keptChanges <= KEPT_CHANGES || old === commit) break;
      this.changes.delete(old);
      this.keptChanges -= dropped.length;
    }
  }
}

// --- internal ---

/** The position of the one commit `prefix` names on the line, or why there is none. */
function sinceIndex(line: Line, prefix: string): number | ParamProblem {
  const matches: number[] = [];
  for (const [i, c] of line.commits.entries()) {
    if (!c.commit.startsWith(prefix)) continue;
    matches.push(i);
    if (matches.length > 1) break;
  }
  if (matches.length === 1) return matches[0] as number;
  const where = line.ended ? 'the history of the branch served' : `the newest ${CHANGES_REACH} commits of the branch served (for older changes, use a date)`;
  return problem('since', matches.length > 1 ? `\`${prefix}\` names several commits; give more of its digits` : `commit \`${prefix}\` is not on ${where}`);
}

function problem(name: 'since' | 'cursor', message: string): ParamProblem {
  return { name, message, allowed: CHANGES_PARAMS[name].allowed };
}
