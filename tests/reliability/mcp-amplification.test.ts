/**
 * MCP amplification (issue 11, item 2) at the 5,000-deal scale: `scripts/serve.ts` as a child
 * process on a generated catalog of 5,000 deals (llms-full.txt is then megabytes). Three
 * attacks, each while a second loop times GET /api/v1/deals?limit=1 back to back (its latency is
 * the event-loop delay every other client sees):
 * (a) a 2 KB JSON-RPC batch of 20 `resources/read` of llms-full.txt (was: one 85 MB answer);
 * (b) a 4 MB deeply nested body, with and without Content-Length (was: 2 to 4.6 s of blocked
 *     loop), and 60 KB of it, under the size limit (refused by the depth scan);
 * (c) 20 single `resources/read` of llms-full.txt in a row (was: a fresh render each).
 *
 * The batch is refused, the nested bodies too, single reads are each the size of llms-full.txt
 * (from the documents cache), and the probe never waits a second. Prints answer bytes, the
 * probe's worst latency and the server's RSS (now and peak) so the figures show in CI output.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { gitContentCopy } from '../helpers/server.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { PROJECT_ROOT } from '../helpers/writes-harness.ts';
import { connectMcp, fetchText } from '../helpers/agents-support.ts';
import { upload, type UploadAnswer } from '../helpers/upload.ts';

/** The probe's worst latency allowed during an attack (generous: a healthy answer takes milliseconds). */
const MAX_PROBE_MS = 1000;

let work: string;
let server: ChildServer;
let llmsFullUri: string;
let llmsFullBytes: number;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-mcp-amp-'));
  const source = join(work, 'content-source');
  execFileSync(process.execPath, ['scripts/generate.ts', '--deals', '5000', '--startups', '2000', '--out', source], { cwd: PROJECT_ROOT, stdio: 'pipe' });
  const contentDir = await gitContentCopy(source, work);
  const { deals } = await buildGenerated(contentDir, join(work, 'generated'));
  expect(deals.length).toBe(5000);
  server = await startChildServer({ contentDir, generatedDir: join(work, 'generated'), dataDir: join(work, 'data'), env: { RATE_LIMITS: 'off' } });
  // Warm: the probe's route and llms-full.txt are answered once before anything is timed.
  expect((await fetchText(`${server.url}/api/v1/deals?limit=1`)).status).toBe(200);
  const llmsFull = await fetchText(`${server.url}/llms-full.txt`);
  expect(llmsFull.status).toBe(200);
  llmsFullBytes = Buffer.byteLength(llmsFull.text);
  // The URI the server publishes for the resource (the site's base URL, not the test port).
  const { client } = await connectMcp(server.url, 'amplification-test');
  llmsFullUri = (await client.listResources()).resources.find((r) => r.name === 'llms-full.txt')?.uri ?? '';
  await client.close();
  expect(llmsFullUri).toMatch(/\/llms-full\.txt$/);
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

type Answer = Omit<UploadAnswer, 'closed'>;

/** The headers a Streamable HTTP client sends. */
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION };

/** POST to /api/mcp; the answer's bytes are counted, not kept beyond 64 KB. */
async function postMcp(body: string): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers: MCP_HEADERS, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, bytes: bytes.byteLength, text: bytes.toString('utf8', 0, 65_536), ms: performance.now() - started };
}

/** Run `attack` while a second loop times reads; the attack's result and the loop's worst latency. */
async function whileProbing<T>(attack: () => Promise<T>): Promise<{ result: T; maxProbeMs: number; probes: number }> {
  let stop = false;
  let maxProbeMs = 0;
  let probes = 0;
  const probe = (async () => {
    while (!stop) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/deals?limit=1`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      maxProbeMs = Math.max(maxProbeMs, performance.now() - started);
      probes++;
    }
  })();
  // Let the probe start before the attack does.
  await new Promise((resolve) => setTimeout(resolve, 50));
  let result: T;
  try {
    result = await attack();
  } finally {
    stop = true;
    // The probe in flight when the attack ends counts too: it is the one a blocked loop delays.
    await probe;
  }
  return { result, maxProbeMs, probes };
}

/** The child server's resident set now and at its peak, in MB (Linux /proc). */
function serverMemory(): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

const read = (id: number) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: llmsFullUri } });

/** How an upload was refused, for the printed figures. */
const refusal = (answer: UploadAnswer) => (answer.closed ? `connection closed (${answer.closed}) before the answer was read` : `${answer.status}, ${answer.bytes} B`);

/** A body of `bytes` bytes, `[` all through: nested as deep as it is long. */
const nestedBody = (bytes: number) => '['.repeat(bytes);

test('small requests cannot buy large answers or block the event loop', async () => {
  const memoryBefore = serverMemory();
  const figures: string[] = [];

  const batchBody = JSON.stringify(Array.from({ length: 20 }, (_, i) => read(i + 1)));
  const batch = await whileProbing(() => postMcp(batchBody));
  figures.push(
    `(a) batch of 20 reads: ${batchBody.length} B sent, ${batch.result.status}, ${batch.result.bytes} B answered in ${Math.round(batch.result.ms)} ms; probe max ${Math.round(batch.maxProbeMs)} ms over ${batch.probes}`,
  );

  // 4 MB of `[`, 64 chunks of 64 KiB, announced by Content-Length and then without it (chunked).
  const fourMegabytes = Array.from({ length: 64 }, () => Buffer.from(nestedBody(64 * 1024)));
  const deep = await whileProbing(() => upload(`${server.url}/api/mcp`, MCP_HEADERS, fourMegabytes, true));
  figures.push(`(b) 4 MB nested, Content-Length: ${refusal(deep.result)} in ${Math.round(deep.result.ms)} ms; probe max ${Math.round(deep.maxProbeMs)} ms over ${deep.probes}`);

  const streamed = await whileProbing(() => upload(`${server.url}/api/mcp`, MCP_HEADERS, fourMegabytes, false));
  figures.push(`(b) 4 MB nested, streamed: ${refusal(streamed.result)} in ${Math.round(streamed.result.ms)} ms; probe max ${Math.round(streamed.maxProbeMs)} ms over ${streamed.probes}`);

  const underLimit = await whileProbing(() => postMcp(nestedBody(60 * 1024)));
  figures.push(`(b) 60 KB nested (under the size limit): ${underLimit.result.status} in ${Math.round(underLimit.result.ms)} ms; probe max ${Math.round(underLimit.maxProbeMs)} ms`);

  const singles = await whileProbing(async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 20; i++) answers.push(await postMcp(JSON.stringify(read(i + 1))));
    return answers;
  });
  const singleBytes = singles.result.map((a) => a.bytes);
  const singleMs = singles.result.map((a) => a.ms);
  figures.push(
    `(c) 20 single reads: statuses ${[...new Set(singles.result.map((a) => a.status))].join(',')}, ${Math.max(...singleBytes)} B each at most ` +
      `(llms-full.txt ${llmsFullBytes} B), ${singleBytes.reduce((n, b) => n + b, 0)} B in all, first ${Math.round(singleMs[0] ?? 0)} ms, ` +
      `slowest later one ${Math.round(Math.max(...singleMs.slice(1)))} ms; probe max ${Math.round(singles.maxProbeMs)} ms over ${singles.probes}`,
  );

  const memoryAfter = serverMemory();
  figures.push(`server RSS: ${memoryBefore.rssMb} MB before, ${memoryAfter.rssMb} MB after, peak ${memoryAfter.peakMb} MB`);
  console.log(`MCP amplification, 5,000 deals:\n  ${figures.join('\n  ')}`);

  // (a) Refused whole: one small JSON-RPC error, none of the 20 reads answered.
  expect(batch.result.status).toBe(400);
  expect(batch.result.bytes).toBeLessThan(1024);
  expect(JSON.parse(batch.result.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  // (b) Refused before any parse: too large (with or without Content-Length), or too deep.
  // 413, or (rarely) the connection closed on the unread rest before the client read the 413.
  for (const { result } of [deep, streamed]) expect(result.closed ? 413 : result.status).toBe(413);
  expect(underLimit.result.status).toBe(400);
  expect(JSON.parse(underLimit.result.text)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/nests deeper/) } });
  // (c) Each answer is llms-full.txt once, in a JSON-RPC envelope (escaped newlines and quotes add a little).
  for (const answer of singles.result) {
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBeLessThan(llmsFullBytes * 1.25 + 1024);
  }
  // Nobody else waits on any of it.
  for (const { maxProbeMs } of [batch, deep, streamed, underLimit, singles]) expect(maxProbeMs).toBeLessThan(MAX_PROBE_MS);
  expect(server.errors()).toEqual([]);
});
