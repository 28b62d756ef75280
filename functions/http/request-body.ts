/**
 * Reading request bodies: JSON (or an HTML form, so plain forms work without JavaScript),
 * with a size limit. Malformed input is a 400 `bad_request`, never a 500.
 */
import { ApiError } from './errors.ts';

/** Bodies above this are refused (DESIGN: bad input never reaches the store). */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * @example const body = await readBody(request) // unknown JSON value
 */
export async function readBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readText(request, maxBytes);
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return formToObject(new URLSearchParams(text));
  if (type && type !== 'application/json' && !type.endsWith('+json')) {
    throw new ApiError(415, 'bad_request', `Content-Type ${type} is not supported.`, { hint: 'Send a JSON body with Content-Type: application/json.' });
  }
  if (text.trim() === '') throw new ApiError(400, 'bad_request', 'The request body is empty.', { hint: 'Send a JSON object.' });
  // Nothing in the API nests deeper than a few levels. Checked on the text, before JSON.parse:
  // parsing 120,000 levels takes 0.2 s of blocked event loop only to be refused afterwards.
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new ApiError(400, 'bad_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, { hint: 'Send the documented shape; /openapi.json describes it.' });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'bad_request', 'The request body is not valid JSON.', { hint: 'Send a JSON object with Content-Type: application/json.' });
  }
}

/** Arrays and objects inside each other, at most this deep. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests arrays/objects more than `limit` deep, by one pass over the text:
 * `[` and `{` outside string literals open a level, `]` and `}` close one. For valid JSON
 * this is exactly the depth of the parsed value, so no check after parsing is needed; for
 * invalid text the parse that follows refuses it anyway.
 * @example jsonDepthExceeds('[[1]]', 1) // true
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character, which is then never the closing quote.
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * A parsed body value that must be a JSON object (400 `validation_error` otherwise).
 * @param where how the message names it, such as `body` or `deals[3]`
 */
export function asJsonObject(value: unknown, where = 'body'): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'validation_error', `${where} must be a JSON object.`, { hint: 'Send a JSON object; /openapi.json describes its fields.' });
  }
  return value as Record<string, unknown>;
}

/** The raw body bytes, refused with 413 beyond `maxBytes` (read no further than that). */
export async function readRawBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new ApiError(400, 'bad_request', 'The request body was cut short.', { hint: 'Send the whole body (the connection closed before it ended).' });
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

// --- internal ---

async function readText(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder('utf-8', { fatal: false }).decode(await readRawBody(request, maxBytes));
}

// Character codes the depth scan looks for.
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'bad_request', `The request body is larger than ${maxBytes} bytes.`, { hint: 'Send a smaller body.' });
}

/** Form fields as JSON-like values: `true`/`on` and `false` become booleans, empty fields are dropped. */
function formToObject(form: URLSearchParams): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of form) {
    if (value === '' || key in object) continue;
    object[key] = value === 'true' || value === 'on' ? true : value === 'false' ? false : value;
  }
  return object;
}
