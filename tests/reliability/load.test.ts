/**
 * A minute at saturation on a realistic catalog: `scripts/serve.ts` as a child process
 * (RATE_LIMITS=off) on a generated content tree of 5,000 deals and 2,000 startups committed as
 * a git repository. autocannon drives a mix of reads (deal lists and filters, searches, slug
 * lookups, startup filters) as fast as the server answers, while the test process creates one
 * deal per second through the admin API (session cookie and Origin, as the admin pages send).
 *
 * Every read answers 2xx (no error, no timeout), every write answers 200 and its deal is
 * readable right after, at least 55 writes complete, and the server logs no error. Prints the
 * read throughput and latency percentiles and the write latency percentiles.
 *
 * LOAD_SECONDS shortens the load for a quick local run (60 by default).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Deal } from '../../src/schemas/deal.ts';
import type { Startup } from '../../src/schemas/startup.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { gitContentCopy } from '../helpers/server.ts';
import { ADMIN, PROJECT_ROOT, addAccount, call, login, uniqueWord } from '../helpers/writes-harness.ts';
import { buildGenerated } from '../helpers/build-generated.ts';

const SECONDS = Number(process.env.LOAD_SECONDS ?? '60');
/** Writes expected over a full minute, scaled for shorter runs. */
const MIN_WRITES = Math.floor((55 * SECONDS) / 60);
const CONNECTIONS = 32;
const TODAY = new Date().toISOString().slice(0, 10);

let work: string;
let server: ChildServer;
let cookie: string;
let deals: Deal[];
let startups: Startup[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-load-'));
  const source = join(work, 'generated-content');
  execFileSync(process.execPath, ['scripts/generate.ts', '--deals', '5000', '--startups', '2000', '--out', source], { cwd: PROJECT_ROOT, stdio: 'pipe' });
  const contentDir = await gitContentCopy(source, work);
  await rm(source, { recursive: true, force: true });
  const generatedDir = join(work, 'generated');
  ({ deals, startups } = await buildGenerated(contentDir, generatedDir, TODAY));
  expect(deals.length).toBe(5000);
  const dataDir = join(work, 'data');
  addAccount(dataDir, ADMIN);
  server = await startChildServer({ contentDir, generatedDir, dataDir, env: { RATE_LIMITS: 'off' } });
  cookie = await login(server.url, ADMIN);
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The read mix: lists and filters, searches from the catalog's own words, slug lookups, startup filters. */
function readPaths(): { method: 'GET'; path: string; headers?: Record<string, string> }[] {
  const categories = [...new Set(deals.map((d) => d.category))];
  const words = [...new Set(deals.flatMap((d) => `${d.title} ${d.provider}`.toLowerCase().match(/\p{L}{3,}/gu) ?? []))];
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const lists = [
    '/api/v1/deals?limit=20',
    '/api/v1/deals?limit=100&status=all',
    '/api/v1/deals?featured=true',
    '/api/v1/deals?recommended=true&limit=50',
    '/api/v1/deals?scope=programs&status=all&limit=50',
    '/api/v1/deals?scope=all&limit=20',
    ...categories.map((c) => `/api/v1/deals?category=${c}&limit=20`),
  ];
  const searches = Array.from({ length: 150 }, () => `/api/v1/deals?search=${encodeURIComponent(Array.from({ length: 1 + Math.floor(next() * 2) }, () => pick(words)).join(' '))}&limit=20`);
  const lookups = Array.from({ length: 150 }, () => `/api/v1/deals?slug=${pick(deals).slug}`);
  const countries = [...new Set(startups.map((s) => s.country).filter(Boolean))];
  const startupFilters = [
    '/api/v1/startups?category=saas&minRevenue=100000&forSale=true',
    '/api/v1/startups?featured=true',
    '/api/v1/startups?search=analytics',
    ...countries.slice(0, 6).map((c) => `/api/v1/startups?country=${c}&forSale=true`),
    `/api/v1/startups?minRevenue=50000&maxRevenue=500000`,
  ];
  const mixed: string[] = [];
  // Interleaved, so each connection cycles through every kind.
  for (let i = 0; i < 150; i++) mixed.push(lists[i % lists.length] as string, searches[i] as string, lookups[i] as string, startupFilters[i % startupFilters.length] as string);
  const requests: { method: 'GET'; path: string; headers?: Record<string, string> }[] = mixed.map((path) => ({ method: 'GET', path }));
  // The whole default list now and then, compressed as browsers and agents take it.
  for (let i = 0; i < requests.length; i += 50) requests.splice(i, 0, { method: 'GET', path: '/api/v1/deals', headers: { 'accept-encoding': 'br, gzip' } });
  return requests;
}

interface Write {
  slug: string;
  status: number;
  ms: number;
  readable: boolean;
  /** performance.now() when the write was answered. */
  answeredAt: number;
  detail: string;
}

/** Create one deal, then read it back by slug. */
async function createDeal(): Promise<Write> {
  const word = uniqueWord('ld');
  const slug = `load-${word}-credits`;
  const started = performance.now();
  const result = await call(server.url, 'POST', '/api/v1/deals', {
    cookie,
    body: { title: `Load ${word} credits`, provider: 'Load Test Cloud', category: 'cloud-credits', applicationUrl: `https://${word}.example/apply` },
  });
  const answeredAt = performance.now();
  const ms = answeredAt - started;
  const read = result.status === 200 ? await call(server.url, 'GET', `/api/v1/deals?slug=${slug}`) : undefined;
  const readable = read?.status === 200 && (read.body as { deal?: { slug?: string } }).deal?.slug === slug;
  return { slug, status: result.status, ms, readable, answeredAt, detail: `${result.status} ${result.text.slice(0, 200)}; read back: ${read?.status} ${read?.text.slice(0, 200)}` };
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

test(
  `${SECONDS} s of reads at saturation with an admin write every second: no failed read, every write visible`,
  async () => {
    const requests = readPaths();
    // Every read path answers on its own before the load (so a failure under load is the load's).
    for (const { path } of new Map(requests.map((r) => [r.path, r])).values()) {
      const response = await fetch(server.url + path);
      await response.arrayBuffer();
      expect(response.status, path).toBe(200);
    }

    const load = autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, requests });
    // One write per second, on the clock (a slow write does not delay the next one).
    const started = performance.now();
    const writes: Promise<Write>[] = [];
    for (let i = 0; i < SECONDS; i++) {
      const due = started + i * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      writes.push(createDeal());
    }
    const result = await load;
    const loadEnded = performance.now();
    const done = await Promise.all(writes);
    const acknowledgedDuringLoad = done.filter((w) => w.status === 200 && w.answeredAt <= loadEnded).length;
    // Still readable once the load is over (nothing lost to a later write).
    const after = await Promise.all(done.filter((w) => w.status === 200).map(async (w) => (await call(server.url, 'GET', `/api/v1/deals?slug=${w.slug}`)).status));

    const writeMs = done.map((w) => w.ms).sort((a, b) => a - b);
    console.log(
      `load: ${SECONDS} s, ${CONNECTIONS} connections, ${deals.length} deals / ${startups.length} startups: ` +
        `${Math.round(result.requests.average)} req/s (${result.requests.total} reads, ${(result.throughput.average / 1048576).toFixed(1)} MB/s), ` +
        `read latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ` +
        `${done.length} writes (${acknowledgedDuringLoad} answered during the load), latency p50 ${percentile(writeMs, 50).toFixed(1)} ms, p99 ${percentile(writeMs, 99).toFixed(1)} ms, max ${percentile(writeMs, 100).toFixed(1)} ms; ` +
        `reads: errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`,
    );

    expect({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }).toEqual({ errors: 0, timeouts: 0, non2xx: 0 });
    expect(result.requests.total).toBeGreaterThan(0);
    expect(done.filter((w) => w.status !== 200 || !w.readable).map((w) => `${w.slug}: ${w.detail}`)).toEqual([]);
    expect(after.filter((status) => status !== 200)).toEqual([]);
    expect(acknowledgedDuringLoad, 'writes acknowledged while the reads ran').toBeGreaterThanOrEqual(MIN_WRITES);
    expect(server.errors()).toEqual([]);
  },
  (SECONDS + 90) * 1000,
);
