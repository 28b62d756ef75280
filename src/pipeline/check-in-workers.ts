/**
 * The build's per-file work for big catalogs, spread over worker threads: each file's front
 * matter parsed, checked by its schema and its kind's rules (validate.ts `checkEntry`). Parsing
 * YAML is most of a build's time (at 150,000 files, 14 of 24 s), and no file needs another for
 * it. The main thread reads the files and hands them out in batches, then takes the answers back
 * in file order, so the records and every diagnostic come out as `runPipeline` makes them; only
 * the uniqueness of slugs and ids, which spans files, is left to it.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type * as z from 'zod';
import { DealSchema, type Deal } from '../schemas/deal.ts';
import { StartupSchema, type Startup } from '../schemas/startup.ts';
import type { Diagnostic, StageResult } from './diagnostics.ts';
import { parseEntry, type SourceFile } from './parse.ts';
import type { ContentFiles } from './read-content.ts';
import { checkEntry, checksCollector, dealRules, startupRules, type ChecksCollector, type EntryCheck, type EntryRules, type Located, type RuleContext } from './validate.ts';

/** Files handed to a worker at once: big enough that messages cost little, small enough to keep both busy to the end. */
const BATCH_FILES = 500;
/** Batches each worker has waiting, so it never idles while the main thread takes an answer. */
const BATCHES_AHEAD = 2;

/**
 * A worker's young generation. By default a worker's heap grew to 160–220 MB of garbage from
 * parsing, and the build's peak from 0.8 to 1.1 GB at 150,000 files; with 8 MB each worker
 * holds about 33 MB and the peak is what it was without workers (docs/performance.md).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

export type EntryKind = 'deals' | 'startups';

/** A batch of files of one kind, to check. */
export interface Batch {
  seq: number;
  kind: EntryKind;
  files: SourceFile[];
}

/** A batch's answer: per file, its parse problems, or its check with the record as JSON (which detaches it from the file's text). */
export interface BatchAnswer {
  seq: number;
  kind: EntryKind;
  results: ({ problems: Diagnostic[] } | { check: EntryCheck<string> })[];
}

/** What a worker is started with: the rules' context, and the port its batches come on. */
export interface WorkerData {
  context: RuleContext;
  port: MessagePort;
}

/** What a worker checks one file with, per kind. */
export type Checkers = Record<EntryKind, (file: SourceFile) => BatchAnswer['results'][number]>;

/**
 * The checkers a worker builds once from the rule context.
 * @example const checkers = checkersFor({ categories, today: '2026-11-29' })
 */
export function checkersFor(context: RuleContext): Checkers {
  const checker =
    <S extends z.ZodType>(schema: S, rules: EntryRules<z.output<S>>) =>
    (file: SourceFile): BatchAnswer['results'][number] => {
      const parsed = parseEntry(file);
      if (!parsed.value) return { problems: parsed.diagnostics };
      const check = checkEntry(parsed.value, schema, rules);
      return { check: { ...check, record: check.record === undefined ? undefined : JSON.stringify(check.record) } };
    };
  return { deals: checker(DealSchema, dealRules(context)), startups: checker(StartupSchema, startupRules(context)) };
}

/**
 * Check every deal and startup file in `workers` threads. Per kind, the diagnostics are the
 * files' parse problems, then what `validateDeals` / `validateStartups` report, in that order.
 * Rejects if a worker fails (the build then fails, as it would on any thrown error).
 */
export async function checkInWorkers(
  sources: { deals: ContentFiles; startups: ContentFiles },
  context: RuleContext,
  workers: number,
): Promise<{ deals: StageResult<Located<Deal>[]>; startups: StageResult<Located<Startup>[]> }> {
  const kinds: Record<EntryKind, { parseProblems: Diagnostic[]; collector: ChecksCollector<unknown> }> = {
    deals: { parseProblems: [], collector: checksCollector() },
    startups: { parseProblems: [], collector: checksCollector() },
  };
  const batches = batchesOf(sources);
  const answered = new Map<number, BatchAnswer>();
  let nextToTake = 0;
  const take = (answer: BatchAnswer): void => {
    const kind = kinds[answer.kind];
    for (const result of answer.results) {
      if ('problems' in result) kind.parseProblems.push(...result.problems);
      else kind.collector.add({ ...result.check, record: result.check.record === undefined ? undefined : (JSON.parse(result.check.record) as unknown) });
    }
  };
  // Each worker talks over a port of its own: the worker's default channel also carries Node's
  // messages (under `--watch`, one per module the worker imports), which are no answers.
  const pool: { worker: Worker; port: MessagePort }[] = [];
  let sent = 0;
  try {
    for (let i = 0; i < Math.max(1, workers); i++) {
      const { port1, port2 } = new MessageChannel();
      pool.push({
        port: port1,
        worker: new Worker(new URL('./check-worker.ts', import.meta.url), { workerData: { context, port: port2 } satisfies WorkerData, transferList: [port2], resourceLimits: WORKER_LIMITS }),
      });
    }
    await new Promise<void>((resolve, reject) => {
      let sentAll = false;
      const send = (port: MessagePort): void => {
        const next = batches.next();
        if (next.done) sentAll = true;
        else {
          port.postMessage(next.value);
          sent++;
        }
      };
      const finishIfDone = (): void => {
        if (sentAll && nextToTake === sent) resolve();
      };
      for (const { worker, port } of pool) {
        port.on('message', (answer: BatchAnswer) => {
          answered.set(answer.seq, answer);
          try {
            // Answers come back in any order; they are taken in file order.
            for (let ready = answered.get(nextToTake); ready; ready = answered.get(nextToTake)) {
              answered.delete(nextToTake++);
              take(ready);
            }
            // Reads the next batch's files: a file that cannot be read fails the build, as it does in `runPipeline`.
            send(port);
          } catch (error) {
            reject(error as Error);
          }
          finishIfDone();
        });
        port.on('messageerror', reject);
        worker.on('error', reject);
        worker.on('exit', (code) => reject(new Error(`a content check worker stopped (exit code ${code})`)));
      }
      for (let i = 0; i < BATCHES_AHEAD; i++) for (const { port } of pool) send(port);
      finishIfDone();
    });
  } finally {
    for (const { port } of pool) port.close();
    await Promise.all(pool.map(({ worker }) => worker.terminate()));
  }
  // Each kind's records were checked by its own schema in the worker.
  const result = <T>(kind: EntryKind): StageResult<Located<T>[]> => {
    const checked = kinds[kind].collector.result() as StageResult<Located<T>[]>;
    return { value: checked.value, diagnostics: [...kinds[kind].parseProblems, ...checked.diagnostics] };
  };
  return { deals: result<Deal>('deals'), startups: result<Startup>('startups') };
}

// --- internal ---

/** The files in batches, deals then startups, each read when its batch is made. */
function* batchesOf(sources: Record<EntryKind, ContentFiles>): Generator<Batch> {
  let seq = 0;
  for (const kind of ['deals', 'startups'] as const) {
    let files: SourceFile[] = [];
    for (const file of sources[kind]) {
      files.push(file);
      if (files.length === BATCH_FILES) {
        yield { seq: seq++, kind, files };
        files = [];
      }
    }
    if (files.length > 0) yield { seq: seq++, kind, files };
  }
}
