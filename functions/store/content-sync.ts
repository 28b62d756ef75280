/**
 * Keeps the served catalog in step with the content store, for changes this instance did not
 * make itself: commits another instance pushed (pulled on an interval or on a webhook, or
 * brought in under a write by a rebase), and hand edits in the working tree (the dev watcher,
 * or SIGHUP to a running server). Every catalog change, local writes included, runs through
 * `exclusive`, one at a time, so none works from a stale catalog.
 *
 * Changed deal files, or changed startup files, are re-read and re-indexed alone; any other
 * change (categories, site, synonyms) rebuilds the catalog from the tree (next-catalog.ts).
 * Content that does not build is not served: the last good catalog stays, the error is logged
 * and shown by /api/v1/health, and the files that failed are read again with the next change.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { isContentFile } from '../../src/pipeline/read-content.ts';
import { formatDiagnostic, type Diagnostic } from '../../src/pipeline/diagnostics.ts';
import type { Logger } from '../ops/log.ts';
import type { ContentStore } from './content-store.ts';
import { WriteQueue } from './write-queue.ts';
import { committedStateOf } from './git-store.ts';
import { logoOfPath, type LogoRef } from '../../src/logos/logo-files.ts';

/** Which commit the generated catalog was built from (written by the content build). */
const BUILT_FROM_FILE = 'content-commit.json';

/** Note, next to the generated catalog, the commit of the content it was built from (if clean). */
export async function recordBuiltCommit(generatedDir: string, contentDir: string): Promise<void> {
  const commit = await committedStateOf(contentDir);
  await writeFile(join(generatedDir, BUILT_FROM_FILE), `${JSON.stringify({ commit: commit ?? null })}\n`);
}

/** The commit recorded by `recordBuiltCommit`, if any. */
export async function readBuiltCommit(generatedDir: string): Promise<string | undefined> {
  try {
    return ((JSON.parse(await readFile(join(generatedDir, BUILT_FROM_FILE), 'utf8')) as { commit?: string | null }).commit ?? undefined) || undefined;
  } catch {
    return undefined;
  }
}

export interface SyncStatus {
  /** The commit the served catalog was built from (as far as deals, startups and settings go). */
  indexedCommit: string | undefined;
  lastPullAt: string | undefined;
  /** Why the newest content is not served, if it is not (a pull failed, or content does not build). */
  problem: string | undefined;
}

export interface ContentSyncOptions {
  store: ContentStore;
  log: Logger;
  current: () => Catalog;
  replace: (catalog: Catalog) => void;
  today: () => string;
  /** The site's address when site.yaml names none (the listen address, as the build used). */
  baseUrl: string;
  /** Commits changed these records' logo files (functions/site/live-logos.ts shows them at once). */
  logosChanged?: (logos: LogoRef[]) => Promise<void>;
}

export class ContentSync {
  private readonly queue = new WriteQueue();
  private readonly options: ContentSyncOptions;
  private indexed: string | undefined;
  /**
   * Files the catalog lags the tree by, because they did not build: a later change re-reads
   * them too (`all`: not known file by file, the next change rebuilds the catalog whole).
   */
  private behind: Set<string> | 'all' = new Set();
  private problem: string | undefined;
  private lastPullAt: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the last pull (or the start, with its fresh clone) began, for `pullIfDue`. */
  private lastPullStartedMs = 0;
  private pulling: Promise<void> | undefined;

  constructor(options: ContentSyncOptions) {
    this.options = options;
  }

  /**
   * Start following the store. `builtFrom` is the commit the loaded catalog was built from, when
   * the build recorded one; otherwise the catalog is taken to match the files as they are (as
   * `npm start` ensures by rebuilding when content changed). Called right after the store opens:
   * the head its opening read, where it read one, is taken for the head now.
   */
  async start(pullEverySeconds: number, builtFrom?: string): Promise<void> {
    this.lastPullStartedMs = Date.now();
    const head = this.options.store.headWhenOpened ?? (await this.options.store.status()).commit;
    this.indexed = builtFrom ?? head;
    // Served from a build older than the store's commits (`npm run serve` after writes): catch up.
    if (this.indexed !== head) void this.catchUp().catch(() => undefined);
    if (pullEverySeconds > 0) {
      this.timer = setInterval(() => void this.pull().catch(() => undefined), pullEverySeconds * 1000);
      this.timer.unref();
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Run a catalog change alone (a local write); `catchUpNow` may be called inside it. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  /** The catalog now reflects `commit` (a local write served its own change). */
  served(commit: string): void {
    if (!this.lagging()) this.indexed = commit;
  }

  /** Fetch the remote and serve what came in. */
  pull(): Promise<{ commit: string | undefined; changed: boolean }> {
    return this.exclusive(async () => {
      try {
        const { commit } = await this.options.store.pull();
        this.lastPullAt = new Date().toISOString();
        if (this.problem?.startsWith('pull')) {
          this.problem = undefined;
          this.options.log.info('content_pull_recovered', { commit });
        }
        const changed = await this.catchUpNow(commit);
        return { commit, changed };
      } catch (error) {
        // Logged once per outage (it is retried every interval), then shown by health until it recovers.
        if (!this.problem?.startsWith('pull')) this.options.log.error('content_pull_failed', { error: firstLine(error) });
        this.problem = `pull failed: ${firstLine(error)}`;
        throw error;
      }
    });
  }

  /**
   * Pull on a request rather than a timer (a serverless instance runs only while it answers):
   * when the last pull began `everyMs` or more ago and none is under way, start one and return
   * it (resolving when done, never rejecting: a failure is logged and shown by health);
   * otherwise `undefined`. The request that starts it is answered from the catalog as it was.
   */
  pullIfDue(everyMs: number, now = Date.now()): Promise<void> | undefined {
    if (everyMs <= 0 || this.pulling || now - this.lastPullStartedMs < everyMs) return undefined;
    this.lastPullStartedMs = now;
    const pulling = this.pull().then(
      () => undefined,
      () => undefined,
    );
    this.pulling = pulling;
    void pulling.finally(() => {
      this.pulling = undefined;
    });
    return pulling;
  }

  /** Serve whatever the store's commits changed since the catalog's commit (queued). */
  catchUp(): Promise<boolean> {
    return this.exclusive(() => this.catchUpNow());
  }

  /** `catchUp` for a caller already inside `exclusive` (`knownHead`: the store's commit, when the caller has it). Resolves with whether the catalog changed. */
  async catchUpNow(knownHead?: string): Promise<boolean> {
    const head = knownHead ?? (await this.options.store.status()).commit;
    if (!head || head === this.indexed) return false;
    const paths = this.indexed ? await this.options.store.changedPaths(this.indexed, head) : undefined;
    // Logo files are shown as they are (no catalog to rebuild for them); submissions left from
    // before they moved to the private store (docs/submissions.md) are not content.
    await this.showLogos(paths);
    const relevant = paths?.filter((path) => !path.startsWith('submissions/') && !path.startsWith('logos/'));
    // Nothing to read, unless files that failed before are to be read again (the commits may have fixed them).
    if (relevant && relevant.length === 0 && !this.lagging()) {
      this.indexed = head;
      return false;
    }
    const applied = await this.apply(relevant, `at ${head.slice(0, 12)}`, head);
    if (applied.diagnostics.length === 0) this.indexed = head;
    return applied.changed;
  }

  /**
   * Serve hand edits in the working tree, committed or not (the dev watcher, SIGHUP): `paths`
   * (relative to the content root) changed, or anything may have when none are given. Queued
   * like every catalog change. Resolves with whether the served catalog changed and, when the
   * content does not build, every error (the last good catalog stays served).
   * @example await content.refresh(['deals/acme.md']) // { changed: true, diagnostics: [] }
   */
  refresh(paths?: readonly string[]): Promise<{ changed: boolean; diagnostics: Diagnostic[] }> {
    return this.exclusive(async () => {
      const relevant = paths?.filter(isContentFile);
      if (relevant && relevant.length === 0) return { changed: false, diagnostics: [] };
      const applied = await this.apply(relevant, 'in the working tree');
      // The whole tree built, so the catalog holds every commit up to the head as well (their logos too).
      if (applied.whole && applied.diagnostics.length === 0) {
        const head = (await this.options.store.status()).commit;
        if (head && this.indexed && head !== this.indexed) await this.showLogos(await this.options.store.changedPaths(this.indexed, head));
        this.indexed = head ?? this.indexed;
      }
      return { changed: applied.changed, diagnostics: applied.diagnostics };
    });
  }

  status(): SyncStatus {
    return { indexedCommit: this.indexed, lastPullAt: this.lastPullAt, problem: this.problem };
  }

  // --- internal ---

  /** Pass the logo files among `paths` (content-relative) to `logosChanged`. */
  private async showLogos(paths: readonly string[] | undefined): Promise<void> {
    const logos = (paths ?? []).map(logoOfPath).filter((logo) => logo !== undefined);
    if (logos.length > 0) await this.options.logosChanged?.(logos);
  }

  /** Whether the catalog lags the tree by files that did not build. */
  private lagging(): boolean {
    return this.behind === 'all' || this.behind.size > 0;
  }

  /**
   * Serve the content after `paths` changed (all of it when unknown), with the files that did
   * not build before; keep the last good catalog when it still does not build.
   */
  private async apply(paths: readonly string[] | undefined, where: string, commit?: string): Promise<{ whole: boolean; changed: boolean; diagnostics: Diagnostic[] }> {
    const { log } = this.options;
    const behind = this.behind;
    const changedPaths = paths === undefined || behind === 'all' ? undefined : [...new Set([...behind, ...paths])].sort();
    const whole = changedPaths === undefined;
    const current = this.options.current();
    // Loaded with the first change to serve, not at start-up: it builds with the content pipeline (http/loaded-on-first-use.ts).
    const { nextCatalog } = await import('./next-catalog.ts');
    const next = await nextCatalog(current, changedPaths, { store: this.options.store, today: this.options.today(), baseUrl: this.options.baseUrl });
    if (!next.catalog) {
      this.behind = changedPaths ? new Set(changedPaths) : 'all';
      this.problem = `content ${where} does not build: ${next.diagnostics.slice(0, 3).map(formatDiagnostic).join('; ')}`;
      log.error('content_invalid', { ...(commit ? { commit } : {}), where, diagnostics: next.diagnostics.slice(0, 10).map(formatDiagnostic) });
      return { whole, changed: false, diagnostics: next.diagnostics };
    }
    this.behind = new Set();
    if (this.problem?.startsWith('content')) {
      this.problem = undefined;
      log.info('content_recovered', { ...(commit ? { commit } : {}), where });
    }
    if (next.catalog === current) return { whole, changed: false, diagnostics: [] };
    this.options.replace(next.catalog);
    log.info('content_synced', { ...(commit ? { commit } : {}), where, files: changedPaths?.length ?? 'all', version: next.catalog.version });
    return { whole, changed: true, diagnostics: [] };
  }
}

// --- internal ---

function firstLine(error: unknown): string {
  const text = String((error as { stderr?: unknown })?.stderr || (error as Error)?.message || error);
  return text.trim().split('\n')[0] ?? 'unknown error';
}
