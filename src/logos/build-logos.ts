/**
 * The logo step of the content build: a WebP image per deal and per startup that has a logo,
 * written to `<generated>/logos/<deals|startups>/<slug>.webp`, and the list of those records in
 * `<generated>/logos/index.json`; the Astro build publishes both at the same paths under the site
 * (src/pages/logos/). Sources, in order: a file committed under
 * `content/logos/<deals|startups>/<slug>.<ext>`, then the record's `logoUrl` (downloaded once,
 * bounded, cached between builds); otherwise, or when a source fails, the page draws the name's
 * monogram. A logo never fails the build: every fallback is reported as one line
 * (docs/editing-content.md).
 */
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { createHash } from 'node:crypto';
import type { CatalogData } from '../catalog/catalog.ts';
import { fetchImage } from './fetch-image.ts';
import { FAILURE_MEMORY_MS, LogoCache } from './logo-cache.ts';
import { optimiseLogo } from './logo-image.ts';
import { MAX_LOGO_BYTES } from './logo-upload.ts';
import { LOGO_EXTENSIONS, LOGO_KINDS, logoFolder, logoFolderNames, logoSlugOf, type LogoKind } from './logo-files.ts';
import { LOGO_INDEX_FILE, type LogoIndex } from './logo-index.ts';

export interface LogoOptions {
  contentDir: string;
  generatedDir: string;
  /** Download `logoUrl`s (`LOGO_FETCH=off`: no; cached results are still used). */
  fetch: boolean;
  /** Per download, redirects included. */
  timeoutMs?: number;
  /** For all downloads of one build: what has not started by then waits for the next build. */
  budgetMs?: number;
  concurrency?: number;
  /** Tests serve logos from 127.0.0.1; builds never fetch internal addresses. */
  allowPrivateAddresses?: boolean;
  now?: () => number;
}

export interface LogoReport {
  fromFiles: number;
  fromUrls: number;
  monograms: number;
  /** Monograms by reason, such as `logoUrl unreachable`. */
  reasons: Record<string, number>;
  /** One line per record whose logo could not be used, and per stray file under content/logos/. */
  notes: string[];
}

/**
 * @example const report = await buildLogos(data, { contentDir: 'content', generatedDir: 'generated', fetch: true });
 */
export async function buildLogos(data: CatalogData, options: LogoOptions): Promise<LogoReport> {
  const now = options.now ?? Date.now;
  const cache = new LogoCache(join(options.generatedDir, 'logo-cache'));
  const show = (path: string) => relative(join(options.contentDir, '..'), path).split('\\').join('/');
  const report: LogoReport = { fromFiles: 0, fromUrls: 0, monograms: 0, reasons: {}, notes: [] };
  const download = downloader(cache, options, now);
  const records = [
    ...data.deals.map((d) => ({ kind: 'deals' as const, slug: d.slug, name: d.provider, logoUrl: d.logoUrl })),
    ...data.startups.map((s) => ({ kind: 'startups' as const, slug: s.slug, name: s.name, logoUrl: s.logoUrl })),
  ];
  const files = await committedFiles(options.contentDir, records, show, report.notes);

  const made = await Promise.all(
    records.map(async (record) => {
      const problems: { reason: string; note: string }[] = [];
      const file = files.get(`${record.kind}/${record.slug}`);
      if (file) {
        const result = await fromFile(file, cache, now());
        if (result.ok) return { record, webp: result.webp, source: 'file' as const, problems };
        problems.push({ reason: `file ${result.problem}`, note: `${show(file)}: ${result.problem} (${result.detail})` });
      }
      if (record.logoUrl) {
        const result = await download(record.logoUrl);
        if (result.ok) return { record, webp: result.webp, source: 'url' as const, problems };
        problems.push({ reason: `logoUrl ${result.problem}`, note: `logoUrl ${record.logoUrl}: ${result.problem} (${result.detail})` });
      }
      return { record, webp: undefined, source: 'monogram' as const, problems };
    }),
  );

  const outDir = join(options.generatedDir, 'logos');
  await rm(outDir, { recursive: true, force: true });
  for (const kind of LOGO_KINDS) await mkdir(join(outDir, kind), { recursive: true });
  await Promise.all(made.map(({ record, webp }) => webp && writeFile(join(outDir, record.kind, `${record.slug}.webp`), webp)));

  // In file order, so the build output is the same from run to run.
  made.sort((a, b) => a.record.kind.localeCompare(b.record.kind) || a.record.slug.localeCompare(b.record.slug));
  const index: LogoIndex = { deals: [], startups: [] };
  for (const { record, webp } of made) if (webp) index[record.kind].push(record.slug);
  await writeFile(join(outDir, LOGO_INDEX_FILE), `${JSON.stringify(index)}\n`);
  for (const item of made) {
    if (item.source === 'file') report.fromFiles++;
    else if (item.source === 'url') report.fromUrls++;
    else {
      report.monograms++;
      const reason = item.problems.at(-1)?.reason ?? 'no logo given';
      report.reasons[reason] = (report.reasons[reason] ?? 0) + 1;
    }
    if (item.problems.length === 0) continue;
    const where = show(join(options.contentDir, item.record.kind, `${item.record.slug}.md`));
    const instead = item.source === 'url' ? 'logoUrl' : 'monogram';
    for (const problem of item.problems) report.notes.push(`logo: ${where}: ${problem.note}; ${instead} instead`);
  }
  return report;
}

/**
 * The build output: the summary line, then one line per fallback.
 * @example formatLogoReport(report)[0] // 'logos: 2 from files, 0 from logoUrl, 111 monograms (no logo given: 52, logoUrl unreachable: 59)'
 */
export function formatLogoReport(report: LogoReport): string[] {
  const reasons = Object.entries(report.reasons)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([reason, count]) => `${reason}: ${count}`)
    .join(', ');
  return [`logos: ${report.fromFiles} from files, ${report.fromUrls} from logoUrl, ${report.monograms} monograms${reasons ? ` (${reasons})` : ''}`, ...report.notes];
}

// --- internal ---

type Made = { ok: true; webp: Buffer } | { ok: false; problem: string; detail: string };

/** `content/logos/<kind>/<slug>.<ext>` by `<kind>/<slug>`; files that match no record, or have another type, are noted. */
async function committedFiles(contentDir: string, records: readonly { kind: LogoKind; slug: string }[], show: (path: string) => string, notes: string[]): Promise<Map<string, string>> {
  const known = new Set(records.map((r) => `${r.kind}/${r.slug}`));
  const found = new Map<string, string>();
  for (const kind of LOGO_KINDS) {
    const dir = join(contentDir, logoFolder(kind));
    for (const name of await logoFolderNames(dir)) {
      const slug = logoSlugOf(name);
      const key = `${kind}/${slug}`;
      const path = join(dir, name);
      if (slug === undefined) notes.push(`logo: ${show(path)}: not a logo file type (${LOGO_EXTENSIONS.join(', ')}); ignored`);
      else if (!known.has(key)) notes.push(`logo: ${show(path)}: no ${kind === 'deals' ? 'deal' : 'startup'} has this slug; ignored`);
      else if (found.has(key)) notes.push(`logo: ${show(path)}: ${show(found.get(key) as string)} is used instead; ignored`);
      else found.set(key, path);
    }
  }
  return found;
}

/** A committed file, optimised once per content (its bytes' hash), so an unchanged file costs one read. */
async function fromFile(path: string, cache: LogoCache, now: number): Promise<Made> {
  const bytes = await readFile(path);
  if (bytes.byteLength > MAX_LOGO_BYTES) return optimiseLogo(bytes);
  const key = `file:${createHash('sha256').update(bytes).digest('hex')}`;
  const cached = await cache.get(key, now);
  if (cached?.ok) return cached;
  const made = await optimiseLogo(bytes);
  if (made.ok) await cache.set(key, made, now);
  return made;
}

/**
 * Each URL once per build, at most `concurrency` at a time, within the build's time budget;
 * results (failures for a day) are cached between builds.
 */
function downloader(cache: LogoCache, options: LogoOptions, now: () => number): (url: string) => Promise<Made> {
  const { timeoutMs = 5_000, budgetMs = 30_000, concurrency = 6 } = options;
  const started = now();
  const byUrl = new Map<string, Promise<Made>>();
  const run = limit(concurrency);
  const attempt = async (url: string): Promise<Made> => {
    const key = `url:${url}`;
    const cached = await cache.get(key, now());
    if (cached?.ok) return cached;
    if (cached) return { ok: false, problem: cached.problem, detail: `${cached.detail}; failed on a build at ${minute(cached.at)}, tried again from ${minute(cached.at + FAILURE_MEMORY_MS)}` };
    if (!options.fetch) return { ok: false, problem: 'not fetched', detail: 'LOGO_FETCH=off' };
    return run(async () => {
      if (now() - started > budgetMs) return { ok: false, problem: 'not fetched', detail: `the build's ${budgetMs / 1000} s for downloads was spent; tried on the next build` };
      const fetched = await fetchImage(url, { timeoutMs, maxBytes: MAX_LOGO_BYTES, allowPrivateAddresses: options.allowPrivateAddresses });
      const made: Made = fetched.ok ? await optimiseLogo(fetched.bytes) : fetched;
      await cache.set(key, made.ok ? made : { ...made, at: now() }, now());
      return made;
    });
  };
  return (url) => {
    let pending = byUrl.get(url);
    if (!pending) byUrl.set(url, (pending = attempt(url)));
    return pending;
  };
}

/** A time as `2026-11-24 06:52 UTC`. */
function minute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Run at most `n` tasks at once. */
function limit(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A finished task hands its place to the next waiting one, so no newcomer slips in between.
    if (active >= n) await new Promise<void>((go) => waiting.push(go));
    else active++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
