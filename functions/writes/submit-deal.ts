/**
 * POST /api/v1/submit-deal (SPEC `submitDeal`): anyone submits a deal for editorial review.
 * 5 accepted submissions per client address per rolling hour; 201 only once the submission is
 * durable in the private store (docs/submissions.md; no git commit).
 *
 * The site's own form (/submit/) posts to its page, which hands the request to `submitForm`
 * below (through `Astro.locals.submitDeal`, functions/site/site.ts): the same limits, store and
 * rules, answered as data the page words itself.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { once } from '../../src/catalog/once.ts';
import { submissionCategoryFor, submissionJsonSchema, type FieldProblem, type FormSubmission, type Submission } from '../../src/schemas/submission.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { compileValidator, type BodyProblem } from '../http/body-validator.ts';
import type { RequestContext } from '../http/app.ts';
import { limitKey } from '../http/limit-key.ts';
import { ApiError } from '../http/errors.ts';
import { formBody, isFormBody, MAX_BODY_BYTES, readBody, readFormFields } from '../http/request-body.ts';
import { submissionRefusal } from '../submissions/refusal.ts';
import { linkSubmission, submittingMember } from '../members/member-submissions.ts';

/**
 * What a submission uses: the per-address limit, the submission store, the catalog (its
 * categories), the time, the log (the store's refusals), the admins' notices, and the accounts
 * and plans (a signed-in member's submission is linked to them: members/member-submissions.ts).
 */
export type SubmitDeps = Pick<Deps, 'submitLimit' | 'submissions' | 'state' | 'clock' | 'log' | 'notify' | 'auth' | 'config'>;
/** What the site's form uses besides: the per-minute budget the API route has (`submit` policy). */
export type FormSubmitDeps = SubmitDeps & Pick<Deps, 'rateLimits'>;

/**
 * The one schema: ajv validates with it, and form fields are decoded by its types
 * (request-body.ts). Made from zod at the first submission, not at start, where it took about
 * 7 ms (docs/performance.md, twenty-third sitting).
 */
const submissionSchema = once(submissionJsonSchema);
const validateSubmission = compileValidator<Submission>(submissionSchema);
/** The fields of a submission: the only names a form error or a kept value may carry. */
const formFields = once(() => new Set(Object.keys((submissionSchema() as { properties: Record<string, unknown> }).properties)));

/**
 * A refused submission: every problem, one per field, each with its code. The answer's `error`
 * is the first (as it always was); its `fields` lists them all when the caller asked (`listed`).
 */
class InvalidSubmission extends ApiError {
  readonly problems: readonly BodyProblem[];

  constructor(problems: [BodyProblem, ...BodyProblem[]], listed: boolean) {
    const [first] = problems;
    super(400, 'validation_error', first.message, {
      hint: first.field === 'site_category' ? 'GET /api/v1/categories lists the deal categories (`deals`, by `slug`).' : 'See the Deal submission schema in /openapi.json for every field rule.',
      fields: listed && problems.some((p) => p.field !== '') ? problems.filter((p) => p.field !== '').map(({ field, message }) => ({ field, message })) : undefined,
    });
    this.problems = problems;
  }
}

/**
 * A plain HTML form post (no JavaScript) gets a redirect: to the thanks page, or back to the
 * form with an error code and the field it names (never text: the page words each code itself,
 * so a crafted /submit/?error= link cannot show its own words on this site). API callers get
 * JSON; with `?errors=all`, a refusal lists every problem in `fields`.
 */
export async function postSubmitDeal(request: Request, deps: SubmitDeps, context: RequestContext): Promise<Response> {
  const fromForm = isFormBody(request) && (request.headers.get('accept') ?? '').includes('text/html');
  if (!fromForm) return submit(request, deps, context, new URL(request.url).searchParams.get('errors') === 'all');
  try {
    const response = await submit(request, deps, context, false);
    const { id } = (await response.clone().json()) as { id: string };
    return new Response(null, { status: 303, headers: { Location: `/submit/thanks/?id=${encodeURIComponent(id)}`, 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const query = new URLSearchParams(formError(error));
    return new Response(null, { status: 303, headers: { Location: `/submit/?${query}`, 'Cache-Control': 'no-store' } });
  }
}

/**
 * A submission posted by the site's own form to its page (src/pages/submit/index.astro): the
 * API's path, all of it (the `submit` rate policy of the route, the hourly budget, validation,
 * the store), answered as data: accepted with the id, or refused with every field's problem as
 * a code and the fields as typed. One difference, for the form only: it asks for this site's
 * category (`site_category`) and SPEC's `category` is derived from it when the form sends none.
 * @example const outcome = await submitForm(request, deps, '203.0.113.7')
 */
export async function submitForm(request: Request, deps: FormSubmitDeps, address: string): Promise<FormSubmission> {
  let values: Record<string, string> = {};
  try {
    const rate = await deps.rateLimits.consume('submit', address);
    if (!rate.allowed) return { accepted: false, status: 429, values, problems: [], form: 'too_many', retryAfterSeconds: rate.resetSeconds };
    const fields = await readFormFields(request, MAX_BODY_BYTES);
    values = typedValues(fields);
    const { body } = await admit(async () => withCategory(formBody(fields, submissionSchema())), deps, { address, member: await submittingMember(request, deps) }, false);
    return { accepted: true, id: body.id };
  } catch (error) {
    if (error instanceof InvalidSubmission) return { accepted: false, status: 400, values, problems: formProblems(error.problems) };
    if (!(error instanceof ApiError) || (error.status >= 500 && error.status !== 503)) throw error;
    const retryAfter = Number(error.headers['Retry-After']);
    const wait = Number.isInteger(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {};
    if (error.status === 429) return { accepted: false, status: 429, values, problems: [], form: 'too_many', ...wait };
    if (error.status === 503) return { accepted: false, status: 503, values, problems: [], form: 'unavailable', ...wait };
    if (error.status === 413) return { accepted: false, status: 413, values, problems: [], form: 'too_large' };
    return { accepted: false, status: 400, values, problems: [], form: 'invalid' };
  }
}

// --- internal ---

/** An ApiError as the code and field /submit/ shows a message for (src/pages/submit/index.astro). */
function formError(error: ApiError): { error: string; field?: string } {
  if (error.status === 429) return { error: 'too_many' };
  if (error.status === 413) return { error: 'too_large' };
  const first = error instanceof InvalidSubmission ? error.problems[0] : undefined;
  if (!first || !formFields().has(first.field)) return { error: 'invalid' };
  return { error: first.problem, field: first.field };
}

/** The submission's fields as the form sent them (the first of repeated names), to show them again. */
function typedValues(fields: Iterable<[string, string]>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of fields) if (formFields().has(name) && !Object.hasOwn(values, name)) values[name] = value;
  return values;
}

/** The form's body with SPEC's `category` derived from `site_category` when the form sent none. */
function withCategory(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const fields = body as Record<string, unknown>;
  if (fields.category === undefined && typeof fields.site_category === 'string') fields.category = submissionCategoryFor(fields.site_category);
  return fields;
}

/**
 * The problems as the form shows them: the form's Category select is `site_category`, and SPEC's
 * `category` comes from it, so a problem with either is that select's (the first one counts).
 */
function formProblems(problems: readonly BodyProblem[]): Array<{ field: string; problem: FieldProblem }> {
  const shown: Array<{ field: string; problem: FieldProblem }> = [];
  for (const { field, problem } of problems) {
    const at = field === 'category' ? 'site_category' : field;
    if (!shown.some((p) => p.field === at)) shown.push({ field: at, problem });
  }
  return shown;
}

async function submit(request: Request, deps: SubmitDeps, context: RequestContext, listed: boolean): Promise<Response> {
  const { body, headers } = await admit(() => readBody(request, MAX_BODY_BYTES, submissionSchema()), deps, { address: context.address, member: await submittingMember(request, deps) }, listed);
  return answerResponse(request, jsonAnswer(201, body, headers));
}

/**
 * One submission through the hourly budget of the client's `address`: a place reserved, the body
 * read, validated and stored (and linked to the signed-in `member`), the place given back when it
 * was not accepted. Throws the error to answer otherwise.
 */
async function admit(
  read: () => Promise<unknown>,
  deps: SubmitDeps,
  { address, member }: { address: string; member: string | undefined },
  listed: boolean,
): Promise<{ body: { success: true; id: string; duplicate?: true }; headers: Record<string, string> }> {
  const key = limitKey(address);
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
    body = await accept(await read(), deps, now, listed, member);
  } catch (error) {
    // DESIGN: only accepted submissions use up the budget; refused or failed ones give it back.
    await deps.submitLimit.release(key, place.token);
    throw error;
  }
  return { body, headers: { ...policy, RateLimit: `"submissions";r=${place.remaining};t=${Math.ceil(deps.submitLimit.windowMs / 1000)}`, 'Cache-Control': 'no-store' } };
}

/** Validate and store one submission (linked to `member`'s account when new); throws the error to answer otherwise. */
async function accept(value: unknown, deps: SubmitDeps, now: Date, listed: boolean, member: string | undefined): Promise<{ success: true; id: string; duplicate?: true }> {
  // JSON and form alike: a form's fields decoded by the schema's types, empty optional fields left out.
  const checked = await validateSubmission(value);
  const problems = checked.ok ? [] : [...checked.problems];
  const category = siteCategoryProblem(value, deps.state().catalog);
  if (category && !problems.some((p) => p.field === category.field)) problems.push(category);
  if (!checked.ok || problems.length > 0) throw new InvalidSubmission(problems as [BodyProblem, ...BodyProblem[]], listed);
  let result: { id: string; duplicate: boolean };
  try {
    result = await deps.submissions.submit(checked.value, now);
  } catch (error) {
    throw submissionRefusal(error, deps.log);
  }
  if (result.duplicate) return { success: true, id: result.id, duplicate: true };
  const submission = checked.value;
  if (member) await linkSubmission(member, { id: result.id, companyName: submission.company_name, websiteUrl: submission.website_url, submittedAt: now.toISOString() }, deps);
  // Durable now; admins hear of it in the background, and nothing of that reaches this answer.
  deps.notify.submitted({ ...checked.value, id: result.id });
  return { success: true, id: result.id };
}

/** `site_category`, when sent as text, must be a deal category of the live catalog (content/categories.yaml). */
function siteCategoryProblem(value: unknown, catalog: Catalog): BodyProblem | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const sent = (value as Record<string, unknown>).site_category;
  if (typeof sent !== 'string') return undefined;
  const slugs = catalog.categories.deals.map((c) => c.slug);
  if (slugs.includes(sent)) return undefined;
  return { field: 'site_category', message: `site_category must be one of ${slugs.join(', ')}`, problem: 'not_allowed' };
}
