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

test('prepare computes the pinned answers, and compresses them in turn (the server calls it once it listens)', async () => {
  const computed: Record<string, Answer> = {};
  // A source of its own per pin, as the deals and the startups are: each keeps its own answers.
  const pin = (key: string): Pin => {
    const source = {};
    return { key, source: () => source, compute: () => (computed[key] ??= answerOf(key)) };
  };
  const pins = [pin('deals'), pin('startups')];
  const state = createCatalogState({} as Catalog, pins);
  // Nothing before it is asked for.
  await new Promise((resolve) => setImmediate(resolve));
  expect(Object.keys(computed)).toEqual([]);
  const prepared = state.prepare();
  expect(Object.keys(computed)).toEqual(['deals', 'startups']);
  const [deals, startups] = [state.pinned('deals') as Answer, state.pinned('startups') as Answer];
  expect(deals.encoded.br).toBeDefined();
  expect([deals.encoded.gzip, startups.encoded.br, startups.encoded.gzip]).toEqual([undefined, undefined, undefined]);
  await prepared;
  for (const answer of [deals, startups]) expect(Object.keys(answer.encoded).sort()).toEqual(['br', 'gzip']);
});

test('a pinned answer copied in pieces is joined when short, and kept in pieces when longer than 16 MiB', async () => {
  const inPieces = (byteLength: number, made: number[]) =>
    new ByteRuns(byteLength, function* (pieceBytes) {
      made.push(pieceBytes);
      for (let at = 0; at < byteLength; at += pieceBytes) yield new Uint8Array(Math.min(pieceBytes, byteLength - at)).fill(0x20);
    });
  const shortMade: number[] = [];
  const longMade: number[] = [];
  const [short, long] = [inPieces(200_000, shortMade), inPieces(17 * 1024 * 1024, longMade)];
  const pins = [short, long].map((body, i): Pin => {
    const source = {};
    return { key: `list-${i}`, source: () => source, compute: () => bytesAnswer(200, body, `"${i}"`) };
  });
  const state = createCatalogState({} as Catalog, pins);
  const [shortKept, longKept] = [state.pinned('list-0') as Answer, state.pinned('list-1') as Answer];
  // Joined once: sending it again copies nothing.
  expect(shortKept.body).toBeInstanceOf(Uint8Array);
  expect(shortKept.body.byteLength).toBe(200_000);
  expect(shortMade).toEqual([200_000]);
  // The default deal list at 50,000 deals (42 MB): joined, it would be its records' bytes a
  // second time beside the catalog file; in pieces it holds at most 512 KiB per client.
  expect(longKept.body === long, 'kept in pieces').toBe(true);
  expect(state.pinned('list-1')).toBe(longKept);
  // Compressed from its pieces, never made whole.
  await precompress(longKept);
  expect(gunzipSync(await (longKept.encoded.gzip as Promise<Uint8Array>)).byteLength).toBe(long.byteLength);
  expect(longMade.length).toBeGreaterThan(0);
  expect(longMade.every((pieceBytes) => pieceBytes < long.byteLength)).toBe(true);
});
