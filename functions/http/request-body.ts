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
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'bad_request', 'The request body is not valid JSON.', { hint: 'Send a JSON object with Content-Type: application/json.' });
  }
  // Nothing in the API nests deeper than a few levels; deeper values would only reach code that recurses.
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    throw new ApiError(400, 'bad_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, { hint: 'Send the documented shape; /openapi.json describes it.' });
  }
  return value;
}

/** Arrays and objects inside each other, at most this deep. */
export const MAX_JSON_DEPTH = 32;

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

/** Whether `value` nests arrays/objects more than `limit` deep (iteratively: no recursion to overflow). */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

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
