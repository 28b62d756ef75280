/**
 * Turns a zod issue into one editor-friendly sentence that says what is wrong and what is
 * allowed (Starlight `error-map.ts` style), given the input the issue was raised on.
 */
import type * as z from 'zod';

/**
 * @example issueMessage(issue, { status: 'ok' }) // "expected one of `active` | `expired`, got `ok`"
 */
export function issueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const received = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => `\`${String(v)}\``).join(' | ')}, got ${show(received)}`;
    case 'invalid_type':
      return received === undefined ? `is required (${issue.expected})` : `expected ${issue.expected}, got ${show(received)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
    case 'too_small':
      return `${issue.message.replace(/^Too small: /, '')}, got ${show(received)}`;
    case 'too_big':
      return `${issue.message.replace(/^Too big: /, '')}, got ${show(received)}`;
    default:
      return received === undefined ? issue.message : `${issue.message}, got ${show(received)}`;
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

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\``;
}
