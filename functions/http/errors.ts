/**
 * One error class for every HTTP failure (SPEC "Errors"), and the one place that turns any
 * thrown value into the SPEC error object. Unknown failures become 500 `internal_error` with
 * no stack, path or library name in the body.
 */

// Types only: the answers' schemas (zod, built when their module loads) are not needed to answer.
export type { ErrorBody } from '../../src/schemas/answers.ts';
import type { ErrorBody } from '../../src/schemas/answers.ts';
type ErrorCode = ErrorBody['code'];

/**
 * An HTTP error with its status, stable code and optional hint and headers.
 * @example throw new ApiError(404, 'not_found', 'No deal has slug `x`', { hint: 'Verify the id or slug.' })
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly headers: Record<string, string>;
  /** Every problem, one per field, for the optional `fields` of the answer (only where the caller asked for them). */
  readonly fields: FieldError[] | undefined;

  constructor(status: number, code: ErrorCode, message: string, options: { hint?: string; headers?: Record<string, string>; fields?: FieldError[] } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.hint = options.hint;
    this.headers = options.headers ?? {};
    this.fields = options.fields;
  }
}

/** One entry of an error answer's optional `fields`. */
export type FieldError = NonNullable<ErrorBody['fields']>[number];

/** The SPEC error object for an ApiError. */
export function errorBody(error: ApiError, now: Date): ErrorBody {
  const body: ErrorBody = { success: false, error: error.message, code: error.code, timestamp: now.toISOString() };
  if (error.hint !== undefined) body.hint = error.hint;
  if (error.fields !== undefined) body.fields = error.fields;
  return body;
}

/** Any thrown value as an ApiError; anything unexpected becomes a bare 500. */
export function asApiError(thrown: unknown): { error: ApiError; unexpected: boolean } {
  if (thrown instanceof ApiError) return { error: thrown, unexpected: false };
  return {
    error: new ApiError(500, 'internal_error', 'The server failed to answer this request.', {
      hint: 'Try again; if it keeps failing, report it to the site owner.',
    }),
    unexpected: true,
  };
}

/** 405 with the `Allow` header (DESIGN "error code per status"). */
export function methodNotAllowed(method: string, allow: readonly string[]): ApiError {
  return new ApiError(405, 'method_not_allowed', `Method ${method} is not supported here.`, {
    hint: `Use ${allow.join(', ')}.`,
    headers: { Allow: allow.join(', ') },
  });
}
