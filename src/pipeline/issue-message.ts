/**
 * Turns a zod issue into one editor-friendly sentence that says what is wrong and what is
 * allowed (Starlight `error-map.ts` style), given the input the issue was raised on, with the
 * allowed value or field name nearest to what was written (suggest.ts).
 */
import type * as z from 'zod';
import { shown, shownList } from './diagnostics.ts';
import { didYouMean } from './suggest.ts';

/**
 * @param fieldNames the field names allowed where the issue is, to suggest one for an unknown field
 * @example issueMessage(issue, { status: 'actve' }) // "expected one of `active` | `expired`, got `actve`; did you mean `active`?"
 */
export function issueMessage(issue: z.core.$ZodIssue, input: unknown, fieldNames: readonly string[] = []): string {
  const received = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      return `expected one of ${allowed.map((v) => `\`${v}\``).join(' | ')}, got ${shown(received)}${didYouMean(received, allowed)}`;
    }
    case 'invalid_type': {
      // zod says `int` for an integer field given a fraction or another type.
      const expected = issue.expected === 'int' ? 'a whole number' : issue.expected;
      return received === undefined ? `is required (${expected})` : `expected ${expected}, got ${shown(received)}`;
    }
    case 'unrecognized_keys':
      if (issue.keys.length === 1) return `unknown field ${shown(issue.keys[0])}${didYouMean(issue.keys[0], fieldNames)}`;
      return `unknown fields ${shownList(issue.keys, ', ', 10)}`;
    case 'too_small':
      return `${issue.message.replace(/^Too small: /, '')}, got ${shown(received)}`;
    case 'too_big':
      return `${issue.message.replace(/^Too big: /, '')}, got ${shown(received)}`;
    default:
      return received === undefined ? issue.message : `${issue.message}, got ${shown(received)}`;
  }
}

/** Dotted field path of an issue, such as `eligibility.2`; unknown keys name the key itself. */
export function issuePath(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys.length === 1) path.push(issue.keys[0] ?? '');
  return path.join('.');
}

// --- internal ---

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
