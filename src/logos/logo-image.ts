/**
 * An editor's or a provider's logo made safe and small: its type is read from the bytes (never
 * from a file name or a Content-Type header), it is rasterised (an SVG too, so no editor SVG,
 * which could hold script, is ever served), fitted into a square white tile and encoded as a
 * WebP of a few KB.
 */
import type Sharp from 'sharp';
import { LOGO_SIZE } from './monogram.ts';
import { MAX_LOGO_BYTES } from './logo-upload.ts';

/** Formats accepted, as sharp names them (AVIF is `heif`). */
const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'svg', 'heif']);

/** Bump when the output changes, so cached results made the old way are made again. */
export const LOGO_RENDERING = `webp-q80-${LOGO_SIZE}-pad8-white-v1`;

export type Optimised = { ok: true; webp: Buffer } | { ok: false; problem: 'too large' | 'not an image'; detail: string };

/**
 * The logo as a square WebP, `LOGO_SIZE` pixels a side: the image fitted inside an 8-pixel
 * margin on white (transparent parts become white, so a dark logo stays visible on the dark
 * theme), quality 80, first frame of an animation; a WebP that is already such a tile (opaque,
 * `LOGO_SIZE` a side, one frame: what an upload commits) is kept byte for byte, so a logo is made
 * once, however often it is read. Served as it is (`/logos/<kind>/<slug>.webp`):
 * a raster image decodes off the page's main thread, an SVG one would not.
 * @example const result = await optimiseLogo(await readFile('content/logos/deals/acme.png'));
 */
export async function optimiseLogo(bytes: Uint8Array): Promise<Optimised> {
  if (bytes.byteLength > MAX_LOGO_BYTES) return { ok: false, problem: 'too large', detail: `${kilobytes(bytes.byteLength)}, more than ${kilobytes(MAX_LOGO_BYTES)}` };
  const sharp = await loadSharp();
  let meta: { format: string; width: number; height: number; hasAlpha?: boolean; pages?: number };
  try {
    // The header only: nothing is decoded yet, whatever size the file claims.
    meta = await sharp(bytes, { ...INPUT, limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, problem: 'not an image', detail: 'not a readable image' };
  }
  const { format, width, height } = meta;
  // Already a finished tile (what an admin's upload commits): kept as it is, not shrunk into a second margin or encoded again.
  if (format === 'webp' && width === LOGO_SIZE && height === LOGO_SIZE && !meta.hasAlpha && (meta.pages ?? 1) === 1) return { ok: true, webp: Buffer.from(bytes) };
  if (!FORMATS.has(format)) return { ok: false, problem: 'not an image', detail: `${format} is not an accepted format (PNG, JPEG, WebP, GIF, SVG, AVIF)` };
  // A small file may claim a huge raster (a decompression bomb): refused before decoding. An SVG is drawn at the tile's size instead.
  if (format !== 'svg' && width * height > MAX_PIXELS) return { ok: false, problem: 'too large', detail: `${width}×${height} pixels, more than ${MAX_PIXELS / 1_000_000} million` };
  const inner = LOGO_SIZE - 2 * MARGIN;
  // A vector logo is drawn at a size that fills the tile at least twice over, whatever its own size says.
  const density = format === 'svg' ? Math.min(2400, Math.max(1, (72 * 2 * inner) / Math.max(width, height, 1))) : undefined;
  try {
    const webp = await sharp(bytes, { ...INPUT, ...(density ? { density } : {}) })
      .resize(inner, inner, { fit: 'contain', background: WHITE })
      .extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, background: WHITE })
      .flatten({ background: WHITE })
      .webp({ quality: 80, effort: 6 })
      .toBuffer();
    return { ok: true, webp };
  } catch (error) {
    return { ok: false, problem: 'not an image', detail: `could not be decoded (${(error as Error).message.split('\n')[0]})` };
  }
}

// --- internal ---

/**
 * sharp on first use: its native library takes about 50 ms to load, which a server start would
 * pay for a logo upload that may never come (issue 19, start time).
 */
let sharpModule: Promise<typeof Sharp> | undefined;
const loadSharp = (): Promise<typeof Sharp> => (sharpModule ??= import('sharp').then((module) => module.default));

const MARGIN = 8;
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };
/** Refuse decompression bombs (a small file that claims a huge image); fail on broken data, not only warn. */
const MAX_PIXELS = 25_000_000;
const INPUT = { limitInputPixels: MAX_PIXELS, failOn: 'error', animated: false } as const;

function kilobytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
