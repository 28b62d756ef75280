/**
 * Pinned answers are compressed ahead of time one answer and one coding after the other
 * (functions/http/answer.ts `precompress`, reads/catalog-state.ts): four jobs at once took both
 * cores of a two-core server for seconds while it started (docs/performance.md).
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { bytesAnswer, precompress, type Answer } from '../../functions/http/answer.ts';
import { compress } from '../../functions/http/compress.ts';
import { ByteRuns } from '../../functions/http/bytes-response.ts';
import { createCatalogState, type Pin } from '../../functions/reads/catalog-state.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';

const body = (seed: string) => Buffer.from(JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: `${seed}-${i}`, title: `Deal ${i}` }))));
const answerOf = (seed: string): Answer => bytesAnswer(200, body(seed), `"${seed}"`);

test('precompress starts gzip only once brotli is done, and both decode to the body', async () => {
  const answer = answerOf('a');
  const done = precompress(answer, 'fast');
  expect(answer.encoded.br).toBeDefined();
  expect(answer.encoded.gzip).toBeUndefined();
  await answer.encoded.br;
  // The loop resumes a microtask later.
  await new Promise((resolve) => setImmediate(resolve));
  expect(answer.encoded.gzip).toBeDefined();
  await done;
  expect(brotliDecompressSync(await (answer.encoded.br as Promise<Uint8Array>)).equals(answer.body as Uint8Array)).toBe(true);
  expect(gunzipSync(await (answer.encoded.gzip as Promise<Uint8Array>)).equals(answer.body as Uint8Array)).toBe(true);
});

test('a coding a request already compressed is taken as it is, not compressed again', async () => {
  const answer = answerOf('b');
  const byRequest = compress(answer.body, 'gzip');
  answer.encoded.gzip = byRequest;
  await precompress(answer);
  expect(answer.encoded.gzip).toBe(byRequest);
  expect(answer.encoded.br).toBeDefined();
});

test('a small body is not compressed', async () => {
  const answer = bytesAnswer(200, Buffer.from('{"success":true}'), '"c"');
  await precompress(answer);
  expect(answer.encoded).toEqual({});
});

test('the first catalog compresses its pinned answers in turn, after start-up work', async () => {
  const computed: Record<string, Answer> = {};
  // A source of its own per pin, as the deals and the startups are: each keeps its own answers.
  const pin = (key: string): Pin => {
    const source = {};
    return { key, source: () => source, compute: () => (computed[key] ??= answerOf(key)) };
  };
  const pins = [pin('deals'), pin('startups')];
  const state = createCatalogState({} as Catalog, pins, { eager: true });
  expect(Object.keys(computed)).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  const [deals, startups] = [state.pinned('deals') as Answer, state.pinned('startups') as Answer];
  expect(deals.encoded.br).toBeDefined();
  expect([deals.encoded.gzip, startups.encoded.br, startups.encoded.gzip]).toEqual([undefined, undefined, undefined]);
  while (!startups.encoded.gzip) await new Promise((resolve) => setTimeout(resolve, 5));
  await startups.encoded.gzip;
  for (const answer of [deals, startups]) expect(Object.keys(answer.encoded).sort()).toEqual(['br', 'gzip']);
});

test('a pinned answer copied in pieces is kept in pieces, not joined beside the catalog, and compresses to its bytes', async () => {
  const whole = Buffer.from(JSON.stringify(Array.from({ length: 4000 }, (_, i) => ({ id: `p-${i}`, title: `Deal ${i}` }))));
  const made: number[] = [];
  const inPieces = new ByteRuns(whole.byteLength, function* (pieceBytes) {
    made.push(pieceBytes);
    for (let at = 0; at < whole.byteLength; at += pieceBytes) yield Uint8Array.from(whole.subarray(at, at + pieceBytes));
  });
  const source = {};
  const state = createCatalogState({} as Catalog, [{ key: 'deals', source: () => source, compute: () => bytesAnswer(200, inPieces, '"p"') }]);
  const pinned = state.pinned('deals') as Answer;
  // The default deal list has the programs between its deals in the catalog file: held whole, it
  // would be the catalog's bytes a second time (40 MB at 50,000 deals).
  expect(pinned.body).toBe(inPieces);
  expect(state.pinned('deals')).toBe(pinned);
  await precompress(pinned);
  expect(brotliDecompressSync(await (pinned.encoded.br as Promise<Uint8Array>)).equals(whole)).toBe(true);
  expect(gunzipSync(await (pinned.encoded.gzip as Promise<Uint8Array>)).equals(whole)).toBe(true);
  expect(made.every((pieceBytes) => pieceBytes < whole.byteLength)).toBe(true);
});
