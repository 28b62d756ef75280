/**
 * `npm run bench:front-door`: the CPU cost of the front door alone (functions/http/app.ts), in
 * process, with no socket: a cached public answer asked for again, through `app.fetch` with
 * every step, then its header fields read as the Node adapter reads them. The baseline, timed
 * in the same run, is the least any handler does for the same answer: look it up by URL and
 * wrap its stored bytes and headers in a response. Reports microseconds per request (median
 * of five rounds of 100,000) and the baseline's share of the front door's time.
 * Usage: node scripts/bench/front-door.ts [--rounds 5]
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../functions/config.ts';
import { createDeps } from '../../functions/deps.ts';
import { rawBody, storedResponse } from '../../functions/http/answer.ts';
import { createApp } from '../../functions/http/app.ts';
import { headerFields, type Payload } from '../../functions/http/bytes-response.ts';
import { createLogger } from '../../functions/ops/log.ts';
import { GitStore } from '../../functions/store/git-store.ts';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { commitContent } from '../_bench-repository.ts';
import { appAnswer, benchRequest, microsPerCall, readAsAdapter } from './_in-process.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const ROOT = resolve(import.meta.dirname, '..', '..');
const PER_ROUND = 100_000;
const PATHS = ['/api/v1/deals?search=cloud&limit=20', '/api/v1/deals?search=credits&limit=20', '/api/v1/deals?category=cloud-credits&limit=20', '/api/v1/startups?limit=20'];
/** 1,000 clients, so that with rate limits on none of them reaches its limit (6,000 reads a minute). */
const clientAddress = (i: number): string => `10.0.${(i % 1000) >> 8}.${i % 256}`;

const work = await mkdtemp(join(tmpdir(), 'bench-front-door-'));
const contentDir = join(work, 'content');
await cp(join(ROOT, 'content'), contentDir, { recursive: true });
commitContent(work, 'Starter content');
const built = runPipeline(await readContent(contentDir), { today: '2026-11-29' });
if (!built.value) throw new Error('the starter content does not build');
const catalog = createCatalog(built.value.data, built.value.postings);

console.log(`# Front door, in process: a cached answer asked for again (${PATHS.length} URLs rotated)\n`);
console.log('| rate limits | baseline µs | front door µs | baseline / front door |\n|---|---|---|---|');
for (const rateLimits of ['off', 'on']) {
  const config = { ...loadConfig({ DATA_DIR: join(work, `data-${rateLimits}`), RATE_LIMITS: rateLimits }), contentDir };
  const deps = createDeps(
    config,
    catalog,
    await GitStore.open(contentDir),
    'x'.repeat(64),
    createLogger(() => undefined),
  );
  const app = createApp(deps);
  const frontDoor = (i: number): Promise<number> => appAnswer(app, PATHS[i % PATHS.length] as string, clientAddress(i));
  // The baseline serves what the front door sent: the same bytes and header fields.
  const stored = new Map<string, { headers: Record<string, string>; body: Payload }>();
  for (const path of PATHS) {
    const response = await app.fetch(benchRequest(path), { address: '127.0.0.1' });
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    stored.set(path, { headers: headerFields(response).fields, body: rawBody(response) ?? new Uint8Array() });
  }
  const baseline = async (i: number): Promise<number> => {
    const path = PATHS[i % PATHS.length] as string;
    const url = new URL(benchRequest(path).url);
    const answer = stored.get(url.pathname + url.search) as { headers: Record<string, string>; body: Payload };
    return readAsAdapter(storedResponse(200, answer.headers, answer.body));
  };
  const base = (await microsPerCall(baseline, PER_ROUND, Number(values.rounds))).median;
  const door = (await microsPerCall(frontDoor, PER_ROUND, Number(values.rounds))).median;
  console.log(`| ${rateLimits} | ${base.toFixed(2)} | ${door.toFixed(2)} | ${(base / door).toFixed(2)} |`);
  await deps.submissions.close();
}
await rm(work, { recursive: true, force: true });
