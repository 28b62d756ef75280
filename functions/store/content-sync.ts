/**
 * Keeps the served catalog in step with the content store's commits, for changes this
 * instance did not make itself: commits another instance pushed (pulled on an interval or on
 * a webhook, or brought in under a write by a rebase). Every catalog change, local writes
 * included, runs through `exclusive`, one at a time, so none works from a stale catalog.
 *
 * Changed deal files are re-read and re-indexed alone; any other change (startups,
 * categories, site) rebuilds the catalog from the tree. Content that does not build is not
 * served: the last good catalog stays, the error is logged and shown by /api/v1/health.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCatalog, withChangedDeals, type Catalog } from '../../src/catalog/catalog.ts';
import { ContentSnapshot, type DealFile } from '../../src/pipeline/content-snapshot.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import type { Diagnostic } from '../../src/pipeline/diagnostics.ts';
import type { Logger } from '../ops/log.ts';
import type { ContentStore } from './content-store.ts';
import { WriteQueue } from './write-queue.ts';
import { committedStateOf } from './git-store.ts';

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
}

export class ContentSync {
  private readonly queue = new WriteQueue();
  private readonly options: ContentSyncOptions;
  private indexed: string | undefined;
  /** The catalog lags the tree (content failed to build): the next catch-up rebuilds it whole. */
  private stale = false;
  private problem: string | undefined;
  private lastPullAt: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: ContentSyncOptions) {
    this.options = options;
  }

  /**
   * Start following the store. `builtFrom` is the commit the loaded catalog was built from, when
   * the build recorded one; otherwise the catalog is taken to match the files as they are (as
   * `npm start` ensures by rebuilding when content changed).
   */
  async start(pullEverySeconds: number, builtFrom?: string): Promise<void> {
    const head = (await this.options.store.status()).commit;
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
    if (!this.stale) this.indexed = commit;
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

  /** Serve whatever the store's commits changed since the catalog's commit (queued). */
  catchUp(): Promise<boolean> {
    return this.exclusive(() => this.catchUpNow());
  }

  /** `catchUp` for a caller already inside `exclusive` (`knownHead`: the store's commit, when the caller has it). Resolves with whether the catalog changed. */
  async catchUpNow(knownHead?: string): Promise<boolean> {
    const { store, log } = this.options;
    const head = knownHead ?? (await store.status()).commit;
    if (!head || head === this.indexed) return false;
    const paths = this.indexed && !this.stale ? await store.changedPaths(this.indexed, head) : undefined;
    // Submissions left from before they moved to the private store (docs/submissions.md) are not content.
    const relevant = paths?.filter((path) => !path.startsWith('submissions/'));
    if (relevant && relevant.length === 0) {
      this.indexed = head;
      return false;
    }
    const onlyDeals = relevant?.every((path) => /^deals\/[^/]+\.md$/.test(path)) ?? false;
    const next = onlyDeals ? await this.withDealFiles(relevant as string[]) : await this.rebuilt();
    if (!next.catalog) {
      this.stale = true;
      this.problem = `content at ${head.slice(0, 12)} does not build: ${next.diagnostics.slice(0, 3).map(describe).join('; ')}`;
      log.error('content_invalid', { commit: head, diagnostics: next.diagnostics.slice(0, 10).map(describe) });
      return false;
    }
    this.options.replace(next.catalog);
    this.indexed = head;
    this.stale = false;
    if (this.problem?.startsWith('content')) this.problem = undefined;
    log.info('content_synced', { commit: head, files: relevant?.length ?? 'all', version: next.catalog.version });
    return true;
  }

  status(): SyncStatus {
    return { indexedCommit: this.indexed, lastPullAt: this.lastPullAt, problem: this.problem };
  }

  // --- internal ---

  private async withDealFiles(paths: readonly string[]): Promise<{ catalog?: Catalog; diagnostics: Diagnostic[] }> {
    const current = this.options.current();
    const files: DealFile[] = [];
    const removals: string[] = [];
    for (const path of paths) {
      const slug = path.slice('deals/'.length, -'.md'.length);
      const text = await this.options.store.read(path);
      if (text === undefined) removals.push(slug);
      else files.push({ slug, text });
    }
    // A file that changed keeps its slug: drop the old record first so a changed id is no duplicate.
    const next = new ContentSnapshot(current).withDealFiles(files, [...removals, ...files.map((f) => f.slug)], this.options.today());
    if (!next.value) return { diagnostics: next.diagnostics };
    return { catalog: withChangedDeals(current, next.value.data, next.value.changed, next.value.removedIds), diagnostics: [] };
  }

  private async rebuilt(): Promise<{ catalog?: Catalog; diagnostics: Diagnostic[] }> {
    const built = runPipeline(await readContent(this.options.store.root), { today: this.options.today(), baseUrl: this.options.baseUrl });
    if (!built.value) return { diagnostics: built.diagnostics.filter((d) => d.severity === 'error') };
    return { catalog: createCatalog(built.value.data, built.value.postings), diagnostics: [] };
  }
}

// --- internal ---

function describe(diagnostic: Diagnostic): string {
  return `${diagnostic.file}${diagnostic.line ? `:${diagnostic.line}` : ''} ${diagnostic.field ? `${diagnostic.field}: ` : ''}${diagnostic.message}`;
}

function firstLine(error: unknown): string {
  const text = String((error as { stderr?: unknown })?.stderr || (error as Error)?.message || error);
  return text.trim().split('\n')[0] ?? 'unknown error';
}
