/**
 * Request-body validation with ajv, compiled from the same JSON Schema the OpenAPI document
 * publishes. Every failure becomes one sentence naming the field and the rule it broke, with a
 * code for it (src/schemas/submission.ts `FIELD_PROBLEMS`); every field's first problem is kept,
 * so a form can show them all at once.
 *
 * Links first: every `format: uri` string of the schema is a link of this API, and goes through
 * the one rule of every link field (src/schemas/fields.ts `normaliseHttpUrl`, the zod schemas'
 * rule too) before ajv sees it: refused with the rule's reason, or replaced by its normalised
 * form, which ajv-formats' `uri` then always accepts (`HTTPS://Example.com/a b` is stored as
 * `https://example.com/a%20b`).
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { HTTP_URL, normaliseHttpUrl } from '../../src/schemas/fields.ts';
import type { FieldProblem } from '../../src/schemas/submission.ts';

/** One problem of a body: the field (`''` for the body itself), the sentence, its code. */
export interface BodyProblem {
  field: string;
  message: string;
  problem: FieldProblem;
}

/**
 * A compiled validator: `ok` with the (defaults-filled) value, or the first problem (`field`,
 * `message`) and `problems`: the first problem of each field, that first one first.
 */
export type BodyValidator<T> = (value: unknown) => Promise<{ ok: true; value: T } | { ok: false; field: string; message: string; problems: BodyProblem[] }>;

/**
 * @param schema gives the JSON Schema, asked for at the first body checked
 * @example const check = compileValidator<Submission>(submissionJsonSchema); await check(body)
 */
export function compileValidator<T>(schema: () => object): BodyValidator<T> {
  // Loaded and compiled at the first body checked, not at start-up: compiling took about 40 ms
  // of every server start, and loading ajv about as much again.
  let compiled: Promise<{ validate: ValidateFunction; links: LinkField[] }> | undefined;
  return async (value) => {
    const { validate, links } = await (compiled ??= compile(schema()));
    const refused = normaliseLinks(value, links);
    if (validate(value) && refused.length === 0) return { ok: true, value: value as T };
    // A refused link is that field's problem (ajv judged the text as sent, not a link); then
    // ajv's, without the `if`/`then` wrapper error that repeats them.
    const problems = [...refused];
    const errors = validate.errors ?? [];
    for (const error of errors.filter((e) => e.keyword !== 'if')) {
      const problem = describe(error);
      if (!problems.some((p) => p.field === problem.field)) problems.push(problem);
    }
    if (problems.length === 0) problems.push(describe(errors[0] as ErrorObject));
    const [first] = problems as [BodyProblem];
    return { ok: false, field: first.field, message: first.message, problems };
  };
}

// --- internal ---

async function compile(schema: object): Promise<{ validate: ValidateFunction; links: LinkField[] }> {
  const [{ Ajv2020 }, formats] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  // ajv-formats is CommonJS: its default export arrives wrapped under ESM.
  const addFormats = ((formats.default as unknown as { default?: unknown }).default ?? formats.default) as unknown as (ajv: Ajv2020) => void;
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true, strictRequired: false });
  addFormats(ajv);
  return { validate: ajv.compile(schema), links: linkFields(schema as JsonSchema, ajv) };
}

interface JsonSchema {
  properties?: Record<string, { format?: string }>;
  if?: { properties?: Record<string, { const?: unknown }> };
  then?: JsonSchema;
}

/** A link field: its name, and for one in a `then` branch, when its `if` holds and how to say so. */
interface LinkField {
  field: string;
  when?: { test: ValidateFunction; words: string };
}

/** The `format: uri` properties of an object schema, those of its top-level `then` branch included. */
function linkFields(schema: JsonSchema, ajv: Ajv2020): LinkField[] {
  const uris = (s: JsonSchema | undefined) =>
    Object.entries(s?.properties ?? {})
      .filter(([, p]) => p.format === 'uri')
      .map(([field]) => field);
  const fields: LinkField[] = uris(schema).map((field) => ({ field }));
  const conditional = uris(schema.then);
  if (schema.if && conditional.length > 0) {
    const test = ajv.compile({ type: 'object', ...schema.if });
    const words = Object.entries(schema.if.properties ?? {})
      .filter(([, p]) => 'const' in p)
      .map(([name, p]) => ` when ${name} is ${String(p.const)}`)
      .join('');
    fields.push(...conditional.map((field) => ({ field, when: { test, words } })));
  }
  return fields;
}

/** Check and normalise the links of a body in place; the refusals, in the order of the fields. */
function normaliseLinks(value: unknown, links: readonly LinkField[]): BodyProblem[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const body = value as Record<string, unknown>;
  const refused: BodyProblem[] = [];
  for (const { field, when } of links) {
    const link = body[field];
    // Not a string: ajv names the type.
    if (typeof link !== 'string') continue;
    if (when && !when.test(body)) continue;
    const checked = normaliseHttpUrl(link);
    if (!checked.ok) refused.push({ field, message: `${field} must be ${HTTP_URL}${checked.problem}${when?.words ?? ''}`, problem: 'invalid_url' });
    else body[field] = checked.url;
  }
  return refused;
}

function describe(error: ErrorObject): BodyProblem {
  const field = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: String(params.missingProperty), message: `${String(params.missingProperty)} is required`, problem: 'required' };
    case 'type':
      return { field, message: `${field || 'body'} must be of type ${String(params.type)}`, problem: 'invalid' };
    case 'minLength':
      return { field, message: `${field} must be at least ${String(params.limit)} characters`, problem: 'too_short' };
    case 'maxLength':
      return { field, message: `${field} must be at most ${String(params.limit)} characters`, problem: 'too_long' };
    case 'enum':
      return { field, message: `${field} must be one of ${(params.allowedValues as unknown[]).join(', ')}`, problem: 'not_allowed' };
    case 'format':
      if (String(params.format) === 'email') return { field, message: `${field} must be a valid email`, problem: 'invalid_email' };
      return { field, message: `${field} must be a valid ${String(params.format) === 'uri' ? 'URL' : String(params.format)}`, problem: String(params.format) === 'uri' ? 'invalid_url' : 'invalid' };
    case 'pattern':
      if (field.endsWith('email')) return { field, message: `${field} must be a valid email address`, problem: 'invalid_email' };
      return { field, message: field === 'redemption_link' ? `${field} must be an http(s) URL when redemption_method is link` : `${field} must be an http(s) URL`, problem: 'invalid_url' };
    case 'additionalProperties':
      return { field: String(params.additionalProperty), message: `unknown field ${String(params.additionalProperty)}`, problem: 'invalid' };
    default:
      return { field, message: `${field || 'body'} ${error.message ?? 'is invalid'}`, problem: 'invalid' };
  }
}
