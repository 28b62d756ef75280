/**
 * POST /api/v1/submit-deal (SPEC `submitDeal`): anyone submits a deal for editorial review.
 * 5 accepted submissions per client address per rolling hour; 201 only once the submission is
 * durable in the private store (docs/submissions.md; no git commit).
 */
import { submissionJsonSchema, type Submission } from '../../src/schemas/submission.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { compileValidator } from '../http/body-validator.ts';
import type { RequestContext } from '../http/middleware.ts';
import { limitKey } from '../http/limit-key.ts';
import { ApiError } from '../http/errors.ts';
import { isFormBody, MAX_BODY_BYTES, readBody } from '../http/request-body.ts';
import { submissionRefusal } from '../submissions/refusal.ts';

/** What a submission uses: the per-address limit, the submission store, the time, the log (the store's refusals). */
export type SubmitDeps = Pick<Deps, 'submitLimit' | 'submissions' | 'clock' | 'log'>;

/** The one schema: ajv validates with it, and form fields are decoded by its types (request-body.ts). */
const SUBMISSION_SCHEMA = submissionJsonSchema();
const validateSubmission = compileValidator<Submission>(SUBMISSION_SCHEMA);

/**
 * A plain HTML form post (no JavaScript) gets a redirect: to the thanks page, or back to the
 * form with an error code and the field it names (never text: the page words each code itself,
 * so a crafted /submit/?error= link cannot show its own words on this site). API callers get JSON.
 */
export async function postSubmitDeal(request: Request, deps: SubmitDeps, context: RequestContext): Promise<Response> {
  const fromForm = isFormBody(request) && (request.headers.get('accept') ?? '').includes('text/html');
  if (!fromForm) return submit(request, deps, context);
  try {
    const response = await submit(request, deps, context);
    const { id } = (await response.clone().json()) as { id: string };
    return new Response(null, { status: 303, headers: { Location: `/submit/thanks/?id=${encodeURIComponent(id)}`, 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const query = new URLSearchParams(formError(error));
    return new Response(null, { status: 303, headers: { Location: `/submit/?${query}`, 'Cache-Control': 'no-store' } });
  }
}

/** The fields a form error may name: the submission's own, never a name the client sent. */
const FORM_FIELDS = new Set(Object.keys((SUBMISSION_SCHEMA as { properties: Record<string, unknown> }).properties));

/**
 * An ApiError as the code and field /submit/ shows a message for (src/pages/submit/index.astro).
 * The validator words each rule in a fixed way (http/body-validator.ts): `<field> is required`,
 * `<field> must be at least …`; anything else is `invalid` with no field.
 */
function formError(error: ApiError): { error: string; field?: string } {
  if (error.status === 429) return { error: 'too_many' };
  if (error.status === 413) return { error: 'too_large' };
  const [, field = '', rule = ''] = /^(\w+) (.*)$/.exec(error.message) ?? [];
  if (error.code !== 'validation_error' || !FORM_FIELDS.has(field)) return { error: 'invalid' };
  return { error: FORM_RULES.find(([pattern]) => pattern.test(rule))?.[1] ?? 'invalid', field };
}

/** The validator's wording of a rule → its form error code. */
const FORM_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^is required$/, 'required'],
  [/^must be at least /, 'too_short'],
  [/^must be at most /, 'too_long'],
  [/^must be one of /, 'not_allowed'],
  [/^must be a valid email/, 'invalid_email'],
  [/URL/, 'invalid_url'],
];

async function submit(request: Request, deps: SubmitDeps, context: RequestContext): Promise<Response> {
  const key = limitKey(context.address);
  const now = deps.clock();
  const policy = { 'RateLimit-Policy': `"submissions";q=${deps.submitLimit.limit};w=${deps.submitLimit.windowMs / 1000}` };
  // Reserve the place before any work, in one atomic step: parallel submissions cannot all pass
  // a check that each made before the others were recorded.
  const place = await deps.submitLimit.reserve(key, now.getTime());
  if (!place.allowed) {
    throw new ApiError(429, 'rate_limited', `At most ${deps.submitLimit.limit} submissions per hour are accepted from one address.`, {
      hint: `Try again in ${place.retryAfterSeconds} seconds.`,
      headers: { ...policy, 'Retry-After': String(place.retryAfterSeconds), RateLimit: `"submissions";r=0;t=${place.retryAfterSeconds}` },
    });
  }
  let body: { success: true; id: string; duplicate?: true };
  try {
    body = await accept(request, deps, now);
  } catch (error) {
    // DESIGN: only accepted submissions use up the budget; refused or failed ones give it back.
    await deps.submitLimit.release(key, place.token);
    throw error;
  }
  return answerResponse(
    request,
    jsonAnswer(201, body, { ...policy, RateLimit: `"submissions";r=${place.remaining};t=${Math.ceil(deps.submitLimit.windowMs / 1000)}`, 'Cache-Control': 'no-store' }),
  );
}

/** Validate and store one submission; throws the error to answer otherwise. */
async function accept(request: Request, deps: Pick<Deps, 'submissions' | 'log'>, now: Date): Promise<{ success: true; id: string; duplicate?: true }> {
  // JSON and form alike: a form's fields decoded by the schema's types, empty optional fields left out.
  const checked = validateSubmission(await readBody(request, MAX_BODY_BYTES, SUBMISSION_SCHEMA));
  if (!checked.ok) {
    throw new ApiError(400, 'validation_error', checked.message, { hint: 'See the Deal submission schema in /openapi.json for every field rule.' });
  }
  let result: { id: string; duplicate: boolean };
  try {
    result = await deps.submissions.submit(checked.value, now);
  } catch (error) {
    throw submissionRefusal(error, deps.log);
  }
  return result.duplicate ? { success: true, id: result.id, duplicate: true } : { success: true, id: result.id };
}
