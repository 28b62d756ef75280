/**
 * `npm run bench [-- --deals N --startups M --duration S --rounds R]`: build a fresh synthetic
 * catalog, start the real server twice (answer cache off and on) and a bare `node:http` baseline
 * that replies with the same precomputed bytes, load all three with autocannon case by case, R
 * rounds of the three one after the other (3 by default), and print every case as the median of
 * the rounds' ratios to the baseline, with their range, and the state it started from.
 */
import { seededRandom } from './seeded-random.ts';
import { commitContent } from './_bench-repository.ts';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchDir, casesFile, measuredServerEnv, SERVER_NODE_FLAGS, type BenchCase } from './bench/_run-layout.ts';
import { cpuTimes, rss, settled } from './bench/_process-cpu.ts';
import { freshServerBundle } from './_server-bundle.ts';
import type { CatalogData } from '../src/catalog/catalog.ts';

const { values } = parseArgs({
  options: {
    deals: { type: 'string', default: '5000' },
    startups: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
  },
});
const ROOT = resolve(import.meta.dirname, '..');
const BENCH_ADMIN = { email: 'bench@localhost.test', password: 'bench-password-1' };
const OUT = benchDir(ROOT, values.deals, values.startups);
// The real servers' environment; the directories it names are made below.
const env = measuredServerEnv(OUT);
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Math.max(1, Number(values.rounds));
const report: string[] = [];
const say = (line: string) => {
  console.log(line);
  report.push(line);
};

// 1. A known state on every run: a fresh synthetic catalog (deterministic), its own git
// repository committed before the build (so the build records the commit and the server does
// not re-index at start), and no site (the benchmark measures the API; pages are measured by
// `npm run lighthouse`). Earlier runs' writes changed their copy, so nothing is reused.
await rm(OUT, { recursive: true, force: true });
const { CONTENT_DIR: contentDir, GENERATED_DIR: generatedDir, DIST_DIR: distDir, DATA_DIR: dataDir } = env;
await run(fork(join(ROOT, 'scripts', 'generate.ts'), ['--deals', values.deals, '--startups', values.startups, '--out', contentDir]));
const commit = commitContent(OUT, 'Synthetic catalog');
// In a process of its own, so its peak memory is the build's alone.
const build = JSON.parse(
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bench', 'build-peak.ts')], {
    env: { ...process.env, CONTENT_DIR: contentDir, GENERATED_DIR: generatedDir, DIST_DIR: distDir },
    encoding: 'utf8',
  }),
) as { ms: number; peakMb: number };
const catalog = JSON.parse(readFileSync(join(generatedDir, 'catalog.json'), 'utf8')) as CatalogData;

// 2. The requests of each case.
const queries = searchQueries(catalog, 2000);
const firstCategory = catalog.deals[0]?.category ?? 'cloud-credits';
const cases: BenchCase[] = [
  { key: 'full', name: '(a) full default list', paths: ['/api/v1/deals'], what: 'GET /api/v1/deals: every live deal, one large answer' },
  {
    key: 'search',
    name: '(b) search, limit=20',
    paths: queries.map((q) => `/api/v1/deals?search=${encodeURIComponent(q)}&limit=20`),
    what: `${queries.length} distinct one- to three-word queries from the catalog's words, a third with a typo, rotated; with the cache on, every one is a cache hit after the warm-up round (the prepared-answer cache holds 20,000 entries, 128 MiB); with it off, every word has been met before, and the server keeps what each word matched by itself (\`npm run bench:in-process -- search --words new\` measures words never met)`,
  },
  { key: 'category', name: '(c) category filter, limit=20', paths: [`/api/v1/deals?category=${firstCategory}&limit=20`], what: 'one category, 20 deals' },
  { key: 'slug', name: '(d) single lookup by slug', paths: catalog.deals.slice(0, 200).map((d) => `/api/v1/deals?slug=${d.slug}`), what: '200 slugs, rotated' },
  { key: 'startups', name: '(e) startups filter', paths: [`/api/v1/startups?category=saas&minRevenue=100000&forSale=true`], what: 'category, revenue floor and for-sale together' },
];

// 3. Servers: the real one twice, answer cache off and on (the default), and the baseline, a
// bare node:http server replying with the same bytes. Both real servers get every case.
await run(fork(join(ROOT, 'scripts', 'admin.ts'), ['add', BENCH_ADMIN.email, '--role', 'admin', '--password', BENCH_ADMIN.password], { env: { ...process.env, DATA_DIR: dataDir }, stdio: 'ignore' }));
// The servers' compile cache (scripts/serve.ts) is this run's own: empty for the first server,
// so its start is a first start ever; filled for the second.
// The servers run from the server bundle, as `npm run build` and `npm start` leave it.
await freshServerBundle();
const cold = await startChild(join(ROOT, 'scripts', 'serve.ts'), { ...env, ANSWER_CACHE: 'off' });
say(`# Benchmark: ${catalog.deals.length} deals, ${catalog.startups.length} startups`);
say('');
say(
  `State: Node ${process.version}; fresh synthetic catalog (npm run generate), content commit ${commit.slice(0, 12)} built before start; site not built (API only); servers run from the server bundle (scripts/_server-bundle.ts); rate limits off on both servers; autocannon ${connections} connections, ${duration} s per measurement; each side warmed right before each case by requesting every path of the case once, then 1 s of load (3 s for the cached search); ${rounds} round${rounds === 1 ? '' : 's'} per case of baseline, cache off and cache on one after the other, each figure the median of the rounds and each ratio the median of the rounds' ratios, with their range when there are several (the baseline moves by a tenth or more between runs on a shared machine).`,
);
say('');
const records = catalog.deals.length + catalog.startups.length;
const perThousand = (value: number) => ((value * 1000) / records).toFixed(1);
// Resident memory once the server has done its start work (the pinned answers computed and
// compressed: seconds of brotli at 50,000 deals, during which it peaks higher), before any load.
const idleAfter = await settled(cold.child);
const rssLoaded = rss(cold.child);
say(
  `- content build (parse, validate, index, emit): ${Math.round(build.ms)} ms, peak memory ${Math.round(build.peakMb)} MB; per 1,000 records: ${perThousand(build.ms)} ms, ${perThousand(build.peakMb)} MB`,
);
say(`- server start to first answer (answer cache off), compile cache empty: ${Math.round(cold.startMs)} ms (${cpuAt(cold)}); per 1,000 records: ${perThousand(cold.startMs)} ms`);
say(
  `- resident memory after start, once its start work was done (idle ${idleAfter.toFixed(1)} s after the first answer), before any load (answer cache off): ${rssLoaded} MB; per 1,000 records: ${perThousand(rssLoaded)} MB`,
);

const answers: Record<string, string> = {};
for (const { paths } of cases) for (const path of paths) answers[path] = await (await fetch(cold.url + path)).text();
const timings = await searchTimings(cold.url, cases[1]?.paths ?? []);
say(
  `- search time inside the server (Server-Timing, one request at a time, cache off), ${timings.length} distinct queries: p50 ${pct(timings, 50).toFixed(3)} ms, p99 ${pct(timings, 99).toFixed(3)} ms, max ${pct(timings, 100).toFixed(3)} ms`,
);
await writeFile(join(OUT, 'answers.json'), JSON.stringify(answers));
await writeFile(casesFile(OUT), JSON.stringify(cases));
const baseline = await startChild(join(ROOT, 'scripts', 'bench', 'baseline-server.ts'), {}, [join(OUT, 'answers.json')]);
const warm = await startChild(join(ROOT, 'scripts', 'serve.ts'), env);
say(`- server start to first answer (answer cache on), compile cache filled by the first start: ${Math.round(warm.startMs)} ms (${cpuAt(warm)}); per 1,000 records: ${perThousand(warm.startMs)} ms`);
// Its start work done too before it is measured, as the first server's was: at 50,000 deals the
// pinned answers take about 11 s of brotli after the first answer, which ran into the first cases.
await settled(warm.child);
// Once the cached server is idle, so that the two starts do not share the machine with its start work.
say(`- the same start from source (SERVER_BUNDLE=off, compile cache filled by a first start from source): ${Math.round(await startFromSource())} ms`);

say('');
for (const c of cases) say(`- ${c.name}: ${c.what}`);
say('');
say('| case | baseline req/s | cache off req/s | ratio | cache on req/s | ratio | p99 ms baseline / off / on |');
say('|---|---|---|---|---|---|---|');
const searchCase = cases[1] as (typeof cases)[number];
const cpuRows: string[] = [];
for (const c of cases) {
  const measured: Round[] = [];
  for (let round = 0; round < rounds; round++) {
    // Warmed in the first round only: later rounds find each side as the one before left it.
    const base = round === 0 ? await measure(baseline, c.paths, 1) : await load(baseline, c.paths);
    const off = round === 0 ? await measure(cold, c.paths, 1) : await load(cold, c.paths);
    const on = round === 0 ? await measure(warm, c.paths, c === searchCase ? 3 : 1) : await load(warm, c.paths);
    measured.push({ base, off, on });
  }
  say(row(c.name, measured));
  cpuRows.push(cpuRow(c.name, measured));
}
say('');
say(
  "CPU per answered request during the same measurements, in µs (user + system, from /proc), each the median of the rounds: the server (with its share in the kernel, and its share off the main thread: V8's GC helpers and libuv's pool, where start-up work still running would show), and the load generator (this process). Both share the machine, so a server that costs more per request also leaves the load generator less; the last column is the baseline's server CPU per request over ours, a ratio that does not depend on that sharing.",
);
say('');
say('| case | server µs baseline / off / on | of it in the kernel | of it off the main thread | load generator µs baseline / off / on | server CPU ratio off / on |');
say('|---|---|---|---|---|---|');
for (const line of cpuRows) say(line);
const rssCold = rss(cold.child);
const rssWarm = rss(warm.child);
say('');
say(`- resident memory after every case above: ${rssCold} MB (answer cache off), ${rssWarm} MB (answer cache on)`);
cold.child.kill();

// 4. Writes on the same catalog (cache on): latency to acknowledged-and-visible, and reads while writing.
const writes = await writeLatencies(
  warm.url,
  catalog.deals.slice(0, 40).map((d) => d.slug),
);
say(
  `- admin write (PUT one deal) acknowledged, ${writes.length} sequential writes: p50 ${pct(writes, 50).toFixed(1)} ms, p95 ${pct(writes, 95).toFixed(1)} ms; each visible to the GET that followed it`,
);
let writing = true;
let written = 0;
const writer = (async () => {
  const session = await signIn(warm.url);
  for (let i = 0; writing; i++) {
    const slug = catalog.deals[100 + (i % 100)]?.slug ?? '';
    await write(warm.url, session, slug, `bench concurrent ${i}`);
    written++;
    await new Promise((r) => setTimeout(r, 100));
  }
})();
const during = await load(warm, searchCase.paths);
writing = false;
await writer;
say(
  `- reads while writing (search, answer cache on, one write every ~100 ms, ${written} writes): ${Math.round(during.rps)} req/s, p99 ${during.p99} ms${during.non2xx ? `, non-2xx ${during.non2xx}` : ''}`,
);
warm.child.kill();
baseline.child.kill();
await writeFile(join(OUT, 'results.md'), `${report.join('\n')}\n`);
console.log(`\nwritten to ${join(OUT, 'results.md')}`);

// --- internal ---

interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /**
   * CPU per answered request, µs: the server's, its kernel share, the share off its main thread
   * (GC helpers, and libuv's pool: work such as start-up compression still running would show
   * here), and this process's, which runs the load.
   */
  cpu: { server: number; serverSystem: number; serverOffMain: number; generator: number };
}

/** A server under test: its process (for its CPU) and where it listens. */
interface Side {
  child: ChildProcess;
  url: string;
}

async function load(side: Side, paths: string[], seconds = duration): Promise<Load> {
  const server = cpuTimes(side.child);
  const generator = process.cpuUsage();
  const result = await autocannon({
    url: side.url,
    connections,
    duration: seconds,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  const serverAfter = cpuTimes(side.child);
  const generatorUsed = process.cpuUsage(generator);
  const perRequest = (seconds: number) => (result.requests.total > 0 ? (seconds * 1e6) / result.requests.total : 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpu: {
      server: perRequest(serverAfter.user - server.user + serverAfter.system - server.system),
      serverSystem: perRequest(serverAfter.system - server.system),
      serverOffMain: perRequest(serverAfter.offMainThread - server.offMainThread),
      generator: perRequest((generatorUsed.user + generatorUsed.system) / 1e6),
    },
  };
}

/**
 * Warm one side, then measure it. Every path is requested once first: autocannon starts each
 * connection at the top of the list, so a timed warm-up alone would reach only the first few
 * hundred of 2,000 searches, and the cached server would be measured half cold. The warm-up
 * sends what autocannon sends (no `Accept-Encoding`): `fetch` asks for brotli, and the cached
 * server then also kept a compressed answer per path that the load never asks for (about 60 MB
 * more resident memory at 5,000 deals).
 */
async function measure(side: Side, paths: string[], warmSeconds: number): Promise<Load> {
  for (let i = 0; i < paths.length; i += 16) await Promise.all(paths.slice(i, i + 16).map((path) => answered(side.url + path)));
  await load(side, paths, warmSeconds);
  return load(side, paths);
}

/** One round of a case: the three sides measured one after the other. */
interface Round {
  base: Load;
  off: Load;
  on: Load;
}

/** A case's line: each side's median over the rounds, each ratio the median of the rounds' own ratios (and their range). */
function row(name: string, measured: readonly Round[]): string {
  const sides = ['off', 'on'] as const;
  const flags = measured.some((m) => sides.some((side) => m[side].non2xx || m[side].errors))
    ? ` (non-2xx ${sides.map((side) => sum(measured.map((m) => m[side].non2xx))).join('/')}, errors ${sides.map((side) => sum(measured.map((m) => m[side].errors))).join('/')})`
    : '';
  const rps = (side: keyof Round) => Math.round(median(measured.map((m) => m[side].rps)));
  const p99 = (side: keyof Round) => median(measured.map((m) => m[side].p99));
  // A baseline that finished no request in the window (a 42 MB list at 50,000 deals, 4 s) has no ratio to give.
  const ratio = (side: 'off' | 'on') => {
    const ratios = measured.filter((m) => m.base.rps > 0).map((m) => m[side].rps / m.base.rps);
    if (ratios.length === 0) return 'n/a';
    const sorted = [...ratios].sort((a, b) => a - b);
    const range = sorted.length > 1 ? ` (${(sorted[0] as number).toFixed(2)}–${(sorted[sorted.length - 1] as number).toFixed(2)})` : '';
    return `${median(ratios).toFixed(2)}${range}`;
  };
  return `| ${name}${flags} | ${rps('base')} | ${rps('off')} | ${ratio('off')} | ${rps('on')} | ${ratio('on')} | ${p99('base')} / ${p99('off')} / ${p99('on')} |`;
}

/** A case's CPU line: each side's CPU per request (the median over the rounds) and the baseline's over ours. */
function cpuRow(name: string, measured: readonly Round[]): string {
  const sides = ['base', 'off', 'on'] as const;
  const of = (side: keyof Round, part: keyof Load['cpu']) => median(measured.map((m) => m[side].cpu[part]));
  const each = (part: keyof Load['cpu']) => sides.map((side) => of(side, part).toFixed(1)).join(' / ');
  // No ratio where a side answered nothing in the window (the baseline's 42 MB list at 50,000 deals).
  const ratio = (side: 'off' | 'on') => (of(side, 'server') > 0 && of('base', 'server') > 0 ? (of('base', 'server') / of(side, 'server')).toFixed(2) : 'n/a');
  return `| ${name} | ${each('server')} | ${each('serverSystem')} | ${each('serverOffMain')} | ${each('generator')} | ${ratio('off')} / ${ratio('on')} |`;
}

function median(values: readonly number[]): number {
  return pct(
    [...values].sort((a, b) => a - b),
    50,
  );
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Time spent computing each search inside the server, read from `Server-Timing`, one request at a time. */
async function searchTimings(base: string, paths: string[]): Promise<number[]> {
  const durations: number[] = [];
  for (const path of paths) {
    const response = await fetch(base + path);
    await response.arrayBuffer();
    const match = /app;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
    if (match) durations.push(Number(match[1]));
  }
  return durations.sort((a, b) => a - b);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/**
 * Distinct one- to three-word queries from the catalog's own words; in one query out of three a
 * word of 5 letters or more carries a typo (a letter dropped, doubled, swapped with the next or
 * replaced), the case the typo budget has to search the dictionary for.
 */
function searchQueries(data: CatalogData, count: number): string[] {
  const words = [...new Set(data.deals.flatMap((d) => `${d.title} ${d.provider} ${(d.tags ?? []).join(' ')} ${d.shortDescription ?? ''}`.toLowerCase().match(/\p{L}{3,}/gu) ?? []))];
  const next = seededRandom(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const queries = new Set<string>();
  while (queries.size < count && words.length > 0) {
    const chosen = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(words));
    const long = chosen.findIndex((w) => w.length >= 5);
    if (long >= 0 && queries.size % 3 === 0) chosen[long] = misspell(chosen[long] as string, next);
    queries.add(chosen.join(' '));
  }
  return [...queries];
}

/** One typo, at a random place (never the first letter, which people rarely get wrong). */
function misspell(word: string, next: () => number): string {
  const at = 1 + Math.floor(next() * (word.length - 2));
  const edits = [
    () => word.slice(0, at) + word.slice(at + 1),
    () => word.slice(0, at) + (word[at] ?? '') + word.slice(at),
    () => word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2),
    () => word.slice(0, at) + 'etaoinshrdlu'[Math.floor(next() * 12)] + word.slice(at + 1),
  ];
  return (edits[Math.floor(next() * edits.length)] as () => string)();
}

/**
 * The CPU a server had used when it first answered. Kernel time is the tell of a slow start on a
 * virtual machine just after other processes freed or touched gigabytes: the server's page faults
 * then cost more (docs/performance.md).
 */
function cpuAt(started: { startCpu: { user: number; system: number } }): string {
  return `CPU by then: ${started.startCpu.user.toFixed(2)} s user, ${started.startCpu.system.toFixed(2)} s system`;
}

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startChild(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ child: ChildProcess; url: string; startMs: number; startCpu: { user: number; system: number } }> {
  const port = await freePort();
  const started = performance.now();
  const child = fork(script, [...args, String(port)], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: SERVER_NODE_FLAGS,
  });
  const url = `http://127.0.0.1:${port}`;
  // Poll with plain node:http: the first fetch() in a process pays for loading undici.
  while (!(await answered(`${url}/api/v1/deals?limit=1`))) await new Promise((r) => setTimeout(r, 5));
  const startMs = performance.now() - started;
  return { child, url, startMs, startCpu: cpuTimes(child) };
}

/** Start to first answer of the server run from its sources, not its bundle, with a compile cache of their own filled first. */
async function startFromSource(): Promise<number> {
  const fromSource = { ...env, SERVER_BUNDLE: 'off', NODE_COMPILE_CACHE: join(OUT, 'compile-cache-source') };
  let startMs = 0;
  for (let run = 0; run < 2; run++) {
    const server = await startChild(join(ROOT, 'scripts', 'serve.ts'), fromSource);
    startMs = server.startMs;
    const exited = new Promise((done) => server.child.once('exit', done));
    server.child.kill();
    await exited;
  }
  return startMs;
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify(BENCH_ADMIN),
  });
  await response.arrayBuffer();
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function write(base: string, cookie: string, slug: string, value: string): Promise<void> {
  const response = await fetch(`${base}/api/v1/deals`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Origin: base, Cookie: cookie },
    body: JSON.stringify({ slug, value }),
  });
  if (response.status !== 200) throw new Error(`write failed: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

/** Milliseconds from sending each write to its answer; each is then checked with a GET. */
async function writeLatencies(base: string, slugs: string[]): Promise<number[]> {
  const cookie = await signIn(base);
  const times: number[] = [];
  for (const [i, slug] of slugs.entries()) {
    const value = `bench value ${i} ${Date.now()}`;
    const started = performance.now();
    await write(base, cookie, slug, value);
    times.push(performance.now() - started);
    const seen = (await (await fetch(`${base}/api/v1/deals?slug=${slug}`)).json()) as { deal?: { value?: string } };
    if (seen.deal?.value !== value) throw new Error(`write to ${slug} not visible to the next read`);
  }
  return times.sort((a, b) => a - b);
}

/** GET with node:http, the whole body read: whether any answer came (false when nothing listens yet). */
function answered(url: string): Promise<boolean> {
  return new Promise((done) => {
    get(url, (response) => {
      response.resume();
      response.on('end', () => done(true));
    }).on('error', () => done(false));
  });
}

function run(child: ChildProcess): Promise<void> {
  return new Promise((done, fail) => child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`exit ${code}`)))));
}
