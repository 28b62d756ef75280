/**
 * Request bodies checked against their zod schema (src/schemas/requests.ts), the one the OpenAPI
 * document publishes: the first problem becomes a 400 `validation_error` naming the field and
 * what it needs, in the words the content check uses (src/pipeline/issue-message.ts).
 */
import * as z from 'zod';
import { issueMessage, issuePath } from '../../src/pipeline/issue-message.ts';
import { fieldNamesAt } from '../../src/pipeline/suggest.ts';
import { REQUEST_SCHEMAS } from '../../src/schemas/requests.ts';
import { ApiError } from './errors.ts';
import { MAX_BODY_BYTES, readBody, type BodySchema } from './request-body.ts';

/**
 * Read a body (JSON or a form, decoded and trimmed by the schema's JSON form: request-body.ts)
 * and check it.
 * @example const { id, reason } = await validBody(request, RejectionSchema)
 */
export async function validBody<S extends z.ZodType>(request: Request, schema: S, maxBytes = MAX_BODY_BYTES): Promise<z.output<S>> {
  const checked = checkBody(schema, await readBody(request, maxBytes, jsonSchemaOf(schema)));
  if (!checked.ok) throw checked.error;
  return checked.value;
}

/** Check a value already read; the refusal is returned, for callers that answer forms otherwise. */
export function checkBody<S extends z.ZodType>(schema: S, value: unknown): { ok: true; value: z.output<S> } | { ok: false; error: ApiError } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const field = issuePath(issue);
  const said = issueMessage(issue, value, issue.code === 'unrecognized_keys' ? fieldNamesAt(schema, issue.path) : []);
  // A password or a link's token is never repeated back (answers and logs would hold it).
  const problem = SECRET_FIELDS.has(String(issue.path.at(-1))) ? said.replace(/,? got [\s\S]*$/, '') : said;
  // A sentence, unless it already ends with the question "did you mean `x`?".
  const message = problem.endsWith('?') ? problem : `${problem}.`;
  const name = Object.entries(REQUEST_SCHEMAS).find(([, known]) => (known as z.ZodType) === schema)?.[0];
  return {
    ok: false,
    error: new ApiError(400, 'validation_error', field ? `\`${field}\` ${message}` : `The body ${message}`, {
      hint: name ? `Send the \`${name}\` object described in /openapi.json.` : 'Send the object described in /openapi.json.',
    }),
  };
}

// --- internal ---

/** Body fields whose values are credentials. */
const SECRET_FIELDS = new Set(['password', 'token']);

const jsonSchemas = new WeakMap<z.ZodType, BodySchema>();

/** The JSON Schema of what a client sends: what form fields are booleans, which may be left out. */
function jsonSchemaOf(schema: z.ZodType): BodySchema {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: 'input' }) as BodySchema;
    jsonSchemas.set(schema, json);
  }
  return json;
}
