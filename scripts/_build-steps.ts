/** Build steps shared by `build:content`, `start` and the benchmark. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { createCatalog, type Catalog, type CatalogData } from '../src/catalog/catalog.ts';
import { listenUrl, type Config } from '../functions/config.ts';
import { formatDiagnostic, sortDiagnostics } from '../src/pipeline/diagnostics.ts';
import { emitCatalog, emitJsonSchemas } from '../src/pipeline/emit.ts';
import { recordBuiltCommit } from '../functions/store/content-sync.ts';
import { inputsFingerprint } from '../src/pipeline/fingerprint.ts';
import { readContent } from '../src/pipeline/read-content.ts';
import { utcDay } from '../functions/utc-day.ts';

const ROOT = resolve(import.meta.dirname, '..');
const BUILD_INFO = 'build-info.json';

/** Today as YYYY-MM-DD (for the passed-expiry warning). */
export const today = (): string => utcDay(new Date());

/** Parse, validate, index and emit; prints every diagnostic. Returns false on content errors. */
export function buildContent(config: Config, print: (line: string) => void = console.error): Promise<boolean> {
  return withLeanHeap(() => buildContentNow(config, print));
}

/**
 * Run `task` with V8 collecting old garbage sooner. By default V8 lets the heap grow to several
 * times what is live before a full collection: at 150,000 records the build peaked at 1.2–1.5 GB
 * with 0.5 GB live. Growing by at most 30 % between collections kept the peak at 0.8–0.9 GB in
 * the same time (docs/performance.md "Binary postings and a leaner content build"). The flag is
 * put back afterwards (to the process's own, or 0: V8 chooses): `npm start` builds in the
 * process that then serves.
 */
async function withLeanHeap<T>(task: () => Promise<T>): Promise<T> {
  // What the process was started with, if anything (V8 has no way to read a flag back).
  const given = process.execArgv.findLast((arg) => /^--heap[-_]growing[-_]percent=\d+$/.test(arg));
  setFlagsFromString('--heap-growing-percent=30');
  try {
    return await task();
  } finally {
    setFlagsFromString(given ?? '--heap-growing-percent=0');
  }
}

async function buildContentNow(config: Config, print: (line: string) => void): Promise<boolean> {
  const started = performance.now();
  const { value, diagnostics } = await (await contentPipeline()).runPipelineOnCores(await readContent(config.contentDir), { today: today(), baseUrl: listenUrl(config) });
  for (const d of sortDiagnostics(diagnostics)) print(formatDiagnostic(d));
  if (!value) {
    print(`build failed: ${diagnostics.filter((d) => d.severity === 'error').length} error(s) in content`);
    return false;
  }
  await emitCatalog(config.generatedDir, value);
  await emitJsonSchemas(config.generatedDir);
  await recordBuiltCommit(config.generatedDir, config.contentDir);
  await buildLogoImages(config, value.data, print);
  print(`built ${value.data.deals.length} deals and ${value.data.startups.length} startups into ${config.generatedDir} in ${Math.round(performance.now() - started)} ms`);
  return true;
}

/**
 * The logo step (src/logos/build-logos.ts): one summary line, one line per fallback. It never
 * fails the build: should it fail as a whole (say, the image library does not load here), the
 * site build draws every logo as a monogram.
 */
async function buildLogoImages(config: Config, data: CatalogData, print: (line: string) => void): Promise<void> {
  try {
    const { buildLogos, formatLogoReport } = await import('../src/logos/build-logos.ts');
    const report = await buildLogos(data, { contentDir: config.contentDir, generatedDir: config.generatedDir, fetch: config.logoFetch });
    for (const line of formatLogoReport(report)) print(line);
  } catch (error) {
    await rm(join(config.generatedDir, 'logos'), { recursive: true, force: true });
    print(`logos: skipped (${(error as Error).message.split('\n')[0]}); every record shows its monogram`);
  }
}

/** Run `astro build` with the same settings, so the pages read the same generated catalog. */
export function buildSite(config: Config): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build', '--silent'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, GENERATED_DIR: config.generatedDir, DIST_DIR: config.distDir, ASTRO_TELEMETRY_DISABLED: '1' },
    });
    child.on('exit', (code) => done(code === 0));
  });
}

/** Fingerprint of everything a build reads. */
export function buildInputs(config: Config): Promise<string> {
  return inputsFingerprint([config.contentDir, join(ROOT, 'src'), join(ROOT, 'astro.config.mjs'), join(ROOT, 'package.json')]);
}

/** True when `generated/` and the site were built from the current inputs. */
export async function isBuildCurrent(config: Config): Promise<boolean> {
  const info = await builtWith(config);
  return info !== undefined && info.inputs === (await buildInputs(config));
}

/**
 * True when a complete build for these folders and this address exists, whatever its inputs:
 * a failed content build leaves it as it was (the site build, which empties `dist/`, never ran).
 */
async function hasGoodBuild(config: Config): Promise<boolean> {
  return (await builtWith(config)) !== undefined && existsSync(join(config.generatedDir, 'catalog.json')) && existsSync(join(config.distDir, 'client'));
}

/**
 * What `npm start` and `npm run dev` serve: the build when it is current, else a fresh one.
 * When the content does not build, the last good build is served (`last-good`: a bad file
 * never takes a serving site down) if there is one; with none, or when the site itself does
 * not build, there is nothing to serve (`refused`). Says why on `print`.
 */
export async function prepareBuild(config: Config, options: { dev?: boolean; print?: (line: string) => void } = {}): Promise<'current' | 'built' | 'last-good' | 'refused'> {
  const print = options.print ?? console.error;
  if (await isBuildCurrent(config)) return 'current';
  print('build is missing or stale: building content and site...');
  const inputs = await buildInputs(config);
  if (!(await buildContent(config, print))) {
    if (await hasGoodBuild(config)) {
      const then = options.dev ? 'each fixed file shows as you save it' : `then send SIGHUP (kill -HUP ${process.pid}) or restart`;
      print(`CONTENT DOES NOT BUILD: serving the last good build; fix the problems above (npm run check lists them): ${then}`);
      return 'last-good';
    }
    print('content does not build and there is no earlier good build to serve: fix the problems above (npm run check lists them) and start again');
    return 'refused';
  }
  if (!(await buildSite(config))) {
    print('the site does not build: fix the problems above and start again');
    return 'refused';
  }
  await recordBuild(config, inputs);
  return 'built';
}

/** Note what a complete build was made from (`inputs`: `buildInputs` taken before it began). */
export async function recordBuild(config: Config, inputs: string): Promise<void> {
  await writeFile(join(config.generatedDir, BUILD_INFO), JSON.stringify({ inputs, distDir: config.distDir, listenUrl: listenUrl(config) }));
}

/**
 * Build a content folder into a catalog in memory with the project's own pipeline, as `npm
 * start` does (the search evaluation and the OpenAPI lint read the starter catalog this way).
 * @throws Error listing the content's errors, one formatted line each, when it does not build
 * @example const catalog = await buildCatalog(join(ROOT, 'content'), '2026-11-23')
 */
export async function buildCatalog(contentDir: string, day: string = today()): Promise<Catalog> {
  const built = (await contentPipeline()).runPipeline(await readContent(contentDir), { today: day });
  const errors = sortDiagnostics(built.diagnostics).filter((d) => d.severity === 'error');
  if (!built.value || errors.length > 0) throw new Error(`${contentDir} does not build (npm run check lists the problems):\n${errors.map(formatDiagnostic).join('\n')}`);
  return createCatalog(built.value.data, built.value.postings);
}

// --- internal ---

/** The content pipeline, loaded when something is built: `npm start` on a current build serves it without (http/loaded-on-first-use.ts). */
const contentPipeline = () => import('../src/pipeline/build.ts');

/** What the last complete build recorded, when it was made for these folders and this address. */
async function builtWith(config: Config): Promise<{ inputs?: string } | undefined> {
  try {
    const info = JSON.parse(await readFile(join(config.generatedDir, BUILD_INFO), 'utf8')) as { inputs?: string; distDir?: string; listenUrl?: string };
    // The listen address is the site's address when site.yaml names none: another port, another build.
    return info.distDir === config.distDir && info.listenUrl === listenUrl(config) ? info : undefined;
  } catch {
    return undefined;
  }
}
