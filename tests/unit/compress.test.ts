/**
 * `compress` (functions/http/compress.ts) takes a body as bytes or as runs of bytes (a huge list,
 * answer.ts `assembledList`): both give what the client decodes back to the same bytes.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { ByteRuns, takePiece } from '../../functions/http/bytes-response.ts';
import { compress } from '../../functions/http/compress.ts';

const text = Buffer.from(JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, title: `Deal ${i}`, body: 'credits '.repeat(i % 17) }))));
const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

test('runs of a body compress to what decodes as the joined body, in both codings and qualities', async () => {
  const cuts = [0, 1, 17, 4096, 70_000, text.byteLength - 3, text.byteLength];
  const runs = cuts.slice(1).map((end, i) => text.subarray(cuts[i], end));
  expect(Buffer.concat(runs).equals(text)).toBe(true);
  for (const coding of ['br', 'gzip'] as const) {
    for (const quality of ['fast', 'best'] as const) {
      const whole = await compress(text, coding, quality);
      const fromRuns = await compress(new ByteRuns(runs), coding, quality);
      expect(decode[coding](fromRuns).equals(text), `${coding} ${quality}`).toBe(true);
      expect(decode[coding](whole).equals(text), `${coding} ${quality}`).toBe(true);
      expect(fromRuns.byteLength).toBeLessThan(text.byteLength / 3);
    }
  }
  expect(decode.gzip(await compress(new ByteRuns([]), 'gzip')).byteLength).toBe(0);
});

test('a body copied in pieces as it is read compresses alike, and its pieces are given back once taken', async () => {
  const PIECE = 64 * 1024;
  const handed: ArrayBufferLike[] = [];
  const copied = new ByteRuns(text.byteLength, function* (pieceBytes) {
    for (let at = 0; at < text.byteLength; at += pieceBytes) {
      const piece = takePiece(Math.min(pieceBytes, text.byteLength - at));
      piece.set(text.subarray(at, at + piece.byteLength));
      handed.push(piece.buffer);
      yield piece;
    }
  });
  expect(text.byteLength).toBeGreaterThan(3 * PIECE);
  for (const coding of ['br', 'gzip'] as const) expect(decode[coding](await compress(copied, coding)).equals(text), coding).toBe(true);
  // Full pieces came from the spare ones and went back: the next piece handed out is one of them.
  expect(handed).toContain(takePiece(PIECE).buffer);
});
