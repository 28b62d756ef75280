/**
 * What the in-process benches share: requests as the Node adapter hands them to the app, an
 * answer read as the adapter reads it, and the timing loop.
 */
import { rawBody } from '../../functions/http/answer.ts';
import type { App } from '../../functions/http/app.ts';
import { headerFields } from '../../functions/http/bytes-response.ts';
import { LazyRequest } from '../../functions/http/lazy-request.ts';

// What autocannon sends, as the adapter hands it over (rawHeaders).
const RAW_HEADERS = ['Host', '127.0.0.1:4321', 'User-Agent', 'autocannon', 'Connection', 'keep-alive'];

/** A GET of `path` as the Node adapter makes it. */
export function benchRequest(path: string): Request {
  return new LazyRequest('GET', `http://127.0.0.1:4321${path}`, RAW_HEADERS) as unknown as Request;
}

/** Read a response as the Node adapter does (its header fields and bytes); returns a number to sum. */
export function readAsAdapter(response: Response): number {
  return Object.keys(headerFields(response).fields).length + (rawBody(response)?.byteLength ?? 0);
}

/** `path` answered by the app for a client at `address`, read as the adapter reads it; anything but 200 throws. */
export async function appAnswer(app: App, path: string, address: string): Promise<number> {
  const response = await app.fetch(benchRequest(path), { address, method: 'GET', path: path.split('?')[0] });
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return readAsAdapter(response);
}

/**
 * Microseconds per call of an in-process benchmark: one warm-up round, then `rounds` rounds of
 * `perRound` calls, each call's result summed so that none is optimised away.
 */
export async function microsPerCall(call: (i: number) => Promise<number>, perRound: number, rounds: number): Promise<{ median: number; fastest: number }> {
  let sink = 0;
  for (let i = 0; i < perRound; i++) sink += await call(i);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (let i = 0; i < perRound; i++) sink += await call(i);
    times.push(((performance.now() - started) * 1000) / perRound);
  }
  if (sink === 0) throw new Error('the calls returned nothing');
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] as number, fastest: times[0] as number };
}
