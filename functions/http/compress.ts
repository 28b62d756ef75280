/**
 * Content coding for JSON and text bodies over 1 KB (DESIGN "compression"): brotli when the
 * client takes it, else gzip. Work runs on libuv's thread pool, off the event loop.
 */
import { once } from 'node:events';
import { promisify } from 'node:util';
import { finished } from 'node:stream/promises';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import { givePieceBack, type Payload } from './bytes-response.ts';

export type Coding = 'br' | 'gzip';

/** Bodies smaller than this are sent as they are. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Pick a content coding from `Accept-Encoding`, honouring q-values (q=0 refuses).
 * @example chooseCoding('gzip, br;q=0') // 'gzip'
 */
export function chooseCoding(acceptEncoding: string | null): Coding | undefined {
  if (!acceptEncoding) return undefined;
  let best: Coding | undefined;
  let bestQ = 0;
  let star = -1;
  const seen = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    if (name === '*') star = q;
    else seen.set(name.trim(), q);
  }
  for (const coding of ['br', 'gzip'] as const) {
    const q = seen.get(coding) ?? (star >= 0 ? star : 0);
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/**
 * Compress a body with a coding; brotli at quality 5 keeps dynamic answers fast. A body given as
 * runs of bytes (a huge list, answer.ts `assembledList`) is streamed through the compressor run
 * by run rather than joined first: no second copy of the full list while it is compressed.
 */
export async function compress(body: Payload, coding: Coding, quality: 'fast' | 'best' = 'fast'): Promise<Uint8Array> {
  const gzipOptions = { level: quality === 'best' ? 9 : 6 };
  const brotliOptions = {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality === 'best' ? 9 : 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  };
  if (body instanceof Uint8Array) return new Uint8Array(coding === 'gzip' ? await gzipAsync(body, gzipOptions) : await brotli(body, brotliOptions));
  const stream = coding === 'gzip' ? createGzip(gzipOptions) : createBrotliCompress(brotliOptions);
  const output: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => output.push(chunk));
  const writing = (async () => {
    for (const run of body.pieces()) {
      // A piece copied for this reading goes back once the compressor has taken it; when the
      // pieces are copied, the next is made once the compressor has room.
      if (!stream.write(run, () => givePieceBack(run)) && body.copies) await once(stream, 'drain');
    }
    stream.end();
  })();
  await Promise.all([writing, finished(stream)]);
  return new Uint8Array(Buffer.concat(output));
}
