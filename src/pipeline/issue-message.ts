/**
 * Turns a zod issue into one editor-friendly sentence that says what is wrong and what is
 * allowed (Starlight `error-map.ts` style), given the input the issue was raised on.
 */
import type * as z from 'zod';
import { shown, shownList } from './diagnostics.ts';

/**
 * @example issueMessage(issue, { status: 'ok' }) // "expected one of `active` | `expired`, got `ok`"
 */
export function issueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const received = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => `\`${String(v)}\``).join(' | ')}, got ${shown(received)}`;
    case 'invalid_type': {
      // zod says `int` for an integer field given a fraction or another type.
      const expected = issue.expected === 'int' ? 'a whole number' : issue.expected;
      return received === undefined ? `is required (${expected})` : `expected ${expected}, got ${shown(received)}`;
    }
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${shownList(issue.keys, ', ', 10)}`;
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
