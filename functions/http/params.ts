/** Shared pieces of the public read handlers. */
import type { ParamProblem } from '../../src/schemas/query.ts';
import { ApiError } from './errors.ts';

/** Public catalog answers may be cached briefly by browsers and shared caches. */
export const PUBLIC_CACHE = { 'Cache-Control': 'public, max-age=60' };

/** DESIGN: an invalid parameter value is 400 `validation_error` naming it, with the allowed values. */
export function invalidParameter(problem: ParamProblem): ApiError {
  return new ApiError(400, 'validation_error', `Invalid value for query parameter \`${problem.name}\`: ${problem.message}.`, {
    hint: `Allowed values for \`${problem.name}\`: ${problem.allowed}.`,
  });
}

/** A whole-number query parameter of at least `min`, or `fallback` when absent. */
export function wholeParam(params: URLSearchParams, name: string, fallback: number, min: number): number {
  const text = params.get(name);
  if (text === null || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw invalidParameter({ name, message: `expected a whole number of at least ${min}, got \`${text}\``, allowed: `whole numbers from ${min}` });
  return value;
}
