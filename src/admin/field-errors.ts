/**
 * A refused admin save, as problems next to the form fields they name (issue 16, item 5): the
 * API's `fields` (asked for with `?errors=all`) or, failing that, the field its `error` names,
 * each worded for an editor ("Title is required.") rather than for a client of the API
 * ("title: is required (string)"). Pure, so unit tests and the browser share it.
 */

/** One problem: the form field it belongs to (the first part of its path), and the API's words. */
export interface FieldProblem {
  field: string | undefined;
  message: string;
}

/**
 * The problems of an API failure: every listed field, else the one `error` names, else the
 * failure itself with no field.
 * @example problemsOf({ code: 'validation_error', error: 'title: is required (string)' }) // [{ field: 'title', message: 'is required (string)' }]
 */
export function problemsOf(failure: { error?: string; code?: string; fields?: Array<{ field: string; message: string }> }): FieldProblem[] {
  if (failure.fields?.length) return failure.fields.map((f) => ({ field: topField(f.field), message: f.message }));
  const error = failure.error ?? 'The save failed.';
  if (failure.code === 'conflict' && /slug `[^`]*` already exists/.test(error)) return [{ field: 'slug', message: 'is taken by another deal; choose another slug' }];
  const named = failure.code === 'validation_error' ? /^(?:deal\.)?([A-Za-z]+(?:\.\d+)?): (.+)$/s.exec(error) : null;
  return named ? [{ field: topField(named[1] ?? ''), message: named[2] ?? '' }] : [{ field: undefined, message: error }];
}

/**
 * A problem as a sentence about the field called `label`, without the API's quoting of the value
 * (the editor sees the value in the field).
 * @example humanProblem('Status', 'expected one of `active` | `expired`, got `nope`') // 'Status: choose one of active, expired.'
 * @example humanProblem('Application URL', 'expected an absolute http:// or https:// URL, got `ftp://x`') // 'Application URL must be an absolute http:// or https:// URL.'
 */
export function humanProblem(label: string, message: string): string {
  const rule = message.replace(/,? got [\s\S]*$/, '').replace(/\.$/, '');
  const plain = (text: string) => text.replace(/`([^`]*)`/g, '$1');
  const oneOf = /^expected one of (.+)$/.exec(rule);
  if (oneOf) return `${label}: choose one of ${plain((oneOf[1] ?? '').split(' | ').join(', '))}.`;
  if (/^is required\b/.test(rule) || /^expected string to have >=1 characters?$/.test(rule)) return `${label} is required.`;
  const size = /^expected (string|array) to have ([<>])=(\d+) (characters?|items?)$/.exec(rule);
  if (size) return `${label} ${size[2] === '<' ? 'may have at most' : 'needs at least'} ${size[3]} ${size[1] === 'array' ? 'items' : 'characters'}.`;
  const expected = /^expected (.+)$/s.exec(rule);
  if (expected) return `${label} must be ${plain(expected[1] ?? '')}.`;
  return `${label}: ${plain(rule)}.`;
}

// --- internal ---

/** `eligibility.2` → `eligibility`: a list item's problem belongs to its list's field. */
function topField(path: string): string | undefined {
  return path.split('.')[0] || undefined;
}
