/**
 * Reading request bodies: JSON (or an HTML form, so plain forms work without JavaScript),
 * with a size limit. Malformed input is a 400 `bad_request`, never a 500.
 *
 * A form is read as the JSON object the same fields would be, decided by the JSON Schema of
 * that object when the caller gives one (issue 14, item 9): a form has only text, so a field
 * whose schema type is boolean takes `true`/`on`/`1`/`yes` and `false`/`off`/`0`/`no`, a number
 * field takes plain decimal digits as a number, and every other field keeps its text as typed (`company_name=on` is the string "on"). Then one
 * rule for JSON and forms alike: text is trimmed, and an empty string in a field the schema does not require is
 * that field left out (a browser sends every text input, filled in or not); in a required field
 * it stays the empty string, for the schema to judge. Defaults (such as an unchecked box's
 * `false`) are the validator's to fill in, for JSON and forms alike.
 */
import { ApiError } from './errors.ts';

/** Bodies above this are refused (DESIGN: bad input never reaches the store). */
export const MAX_BODY_BYTES = 256 * 1024;

/** What `readBody` uses of the JSON Schema of the object a body should be. */
export interface BodySchema {
  properties?: Record<string, unknown>;
  required?: readonly string[];
}

/**
 * @param schema the JSON Schema of the expected object: decodes form fields by type and drops
 *   empty optional fields (see above); without it form fields stay text and nothing is dropped
 * @example const body = await readBody(request) // unknown JSON value
 * @example const body = await readBody(request, MAX_BODY_BYTES, submissionJsonSchema())
 */
export async function readBody(request: Request, maxBytes = MAX_BODY_BYTES, schema?: BodySchema): Promise<unknown> {
  const value = await readValue(request, maxBytes, schema);
  return schema ? trimmedWithoutEmptyOptional(value, schema) : value;
}

/**
 * Whether the body is an HTML form (`application/x-www-form-urlencoded` or
 * `multipart/form-data`), as a browser posts one without JavaScript.
 */
export function isFormBody(request: Request): boolean {
  const type = mediaType(request);
  return type === FORM_URLENCODED || type === FORM_MULTIPART;
}

/**
 * The fields of an HTML form body as sent, name and text, in order (within the size limit; 415
 * for a body that is no form). `formBody` makes of them what `readBody` makes of the same body.
 */
export async function readFormFields(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Array<[string, string]>> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const type = mediaType(request);
  if (type === FORM_MULTIPART) return multipartFields(request, maxBytes);
  if (type === FORM_URLENCODED) return [...new URLSearchParams(await readText(request, maxBytes))];
  throw new ApiError(415, 'bad_request', `Content-Type ${type || '(none)'} is not a form.`, { hint: 'Post the form as application/x-www-form-urlencoded or multipart/form-data.' });
}

/**
 * Form fields (`readFormFields`) as the object `readBody` reads from the same form with `schema`.
 * @example const body = formBody(await readFormFields(request), submissionJsonSchema())
 */
export function formBody(fields: Iterable<[string, string]>, schema: BodySchema): unknown {
  return trimmedWithoutEmptyOptional(formToObject(fields, schema), schema);
}

async function readValue(request: Request, maxBytes: number, schema: BodySchema | undefined): Promise<unknown> {
  if (isFormBody(request)) return formToObject(await readFormFields(request, maxBytes), schema);
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const type = mediaType(request);
  const text = await readText(request, maxBytes);
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

const FORM_URLENCODED = 'application/x-www-form-urlencoded';
const FORM_MULTIPART = 'multipart/form-data';

/** The request's media type, lower-case, without parameters (`''` when none is sent). */
export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The fields of a `multipart/form-data` body, read within the size limit; a file is refused. */
async function multipartFields(request: Request, maxBytes: number): Promise<Array<[string, string]>> {
  const bytes = await readRawBody(request, maxBytes);
  let form: FormData;
  try {
    // The platform's own multipart parser, on bytes already held to the limit.
    form = await new Response(new Uint8Array(bytes), { headers: { 'Content-Type': request.headers.get('content-type') ?? '' } }).formData();
  } catch {
    throw new ApiError(400, 'bad_request', 'The multipart/form-data body could not be read.', {
      hint: 'Send well-formed multipart with its boundary, or a JSON object with Content-Type: application/json.',
    });
  }
  const fields: Array<[string, string]> = [];
  for (const [name, value] of form) {
    if (typeof value !== 'string')
      throw new ApiError(400, 'bad_request', `Form field ${JSON.stringify(name.slice(0, 100))} is a file; only text fields are accepted.`, { hint: 'Send the fields as text.' });
    fields.push([name, value]);
  }
  return fields;
}

/**
 * Form fields as the JSON object they stand for: each decoded by its schema type (see the top of
 * this file); the first of repeated names counts. Own properties as `JSON.parse` makes them,
 * so a field named `__proto__` is just a field.
 */
function formToObject(fields: Iterable<[string, string]>, schema: BodySchema | undefined): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, text] of fields) {
    if (Object.hasOwn(object, key)) continue;
    const field = schema?.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    Object.defineProperty(object, key, { value: fromText(text, field), enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** The words a form may send for a boolean (a checkbox sends its `value`, `on` when it has none). */
const BOOLEAN_WORDS = new Map<string, boolean>([
  ['true', true],
  ['on', true],
  ['1', true],
  ['yes', true],
  ['false', false],
  ['off', false],
  ['0', false],
  ['no', false],
]);

/** A plain decimal number, as a number input sends it. */
const NUMBER_TEXT = /^-?\d+(?:\.\d+)?$/;

/**
 * One form field's text as the JSON value of its schema type: a boolean for a boolean-only field
 * (other text is kept, for the validator to refuse as JSON `"maybe"` would be), the text itself
 * for anything that may be a string, or for a field the schema does not know.
 */
function fromText(text: string, field: unknown): unknown {
  const types = schemaTypes(field);
  if (types.has('boolean') && !types.has('string')) return BOOLEAN_WORDS.get(text.trim().toLowerCase()) ?? text;
  // A number field (`<input type="number">`) sends digits: read as JSON would; anything else stays text, for the validator to refuse.
  if ((types.has('number') || types.has('integer')) && !types.has('string') && NUMBER_TEXT.test(text.trim())) return Number(text.trim());
  return text;
}

/** The JSON types a (sub)schema allows: its `type`, the types of its `const`/`enum` values, and those of `anyOf`/`oneOf` branches. */
function schemaTypes(schema: unknown): Set<string> {
  const types = new Set<string>();
  if (!schema || typeof schema !== 'object') return types;
  const s = schema as { type?: unknown; const?: unknown; enum?: unknown; anyOf?: unknown; oneOf?: unknown };
  for (const type of Array.isArray(s.type) ? s.type : [s.type]) if (typeof type === 'string') types.add(type);
  for (const value of [...('const' in s ? [s.const] : []), ...(Array.isArray(s.enum) ? s.enum : [])]) types.add(typeof value);
  for (const branch of [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])]) for (const type of schemaTypes(branch)) types.add(type);
  return types;
}

/**
 * An object body with the schema's text fields trimmed (white space around a value is never
 * meant: "  Acme " is "Acme", and a field of spaces is empty), then without the empty strings of
 * fields the schema does not require (JSON and forms alike).
 */
function trimmedWithoutEmptyOptional(value: unknown, schema: BodySchema): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !schema.properties) return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (!Object.hasOwn(schema.properties, key)) continue;
    const field = object[key];
    if (typeof field === 'string') object[key] = field.trim();
    if (object[key] === '' && !schema.required?.includes(key)) delete object[key];
  }
  return object;
}
