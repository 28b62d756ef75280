/**
 * Request-body validation with ajv, compiled from the same JSON Schema the OpenAPI document
 * publishes. Every failure becomes one sentence naming the field and the rule it broke.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** A compiled validator: `ok` with the (defaults-filled) value, or the first problem. */
export type BodyValidator<T> = (value: unknown) => { ok: true; value: T } | { ok: false; field: string; message: string };

/**
 * @example const check = compileValidator<Submission>(submissionJsonSchema()); check(body)
 */
export function compileValidator<T>(schema: object): BodyValidator<T> {
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true, strictRequired: false });
  addFormats(ajv);
  const validate: ValidateFunction = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return { ok: true, value: value as T };
    const error = pickError(validate.errors ?? []);
    return { ok: false, ...describe(error) };
  };
}

// --- internal ---

/** Prefer errors about a field over the `if`/`then` wrapper error that repeats them. */
function pickError(errors: ErrorObject[]): ErrorObject {
  return errors.find((e) => e.keyword !== 'if') ?? (errors[0] as ErrorObject);
}

function describe(error: ErrorObject): { field: string; message: string } {
  const field = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: String(params.missingProperty), message: `${String(params.missingProperty)} is required` };
    case 'type':
      return { field, message: `${field || 'body'} must be of type ${String(params.type)}` };
    case 'minLength':
      return { field, message: `${field} must be at least ${String(params.limit)} characters` };
    case 'maxLength':
      return { field, message: `${field} must be at most ${String(params.limit)} characters` };
    case 'enum':
      return { field, message: `${field} must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'format':
      return { field, message: `${field} must be a valid ${String(params.format) === 'uri' ? 'URL' : String(params.format)}` };
    case 'pattern':
      if (field.endsWith('email')) return { field, message: `${field} must be a valid email address` };
      return { field, message: field === 'redemption_link' ? `${field} must be an http(s) URL when redemption_method is link` : `${field} must be an http(s) URL` };
    case 'additionalProperties':
      return { field: String(params.additionalProperty), message: `unknown field ${String(params.additionalProperty)}` };
    default:
      return { field, message: `${field || 'body'} ${error.message ?? 'is invalid'}` };
  }
}
