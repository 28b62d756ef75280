/** The admin form's wording of refused saves (src/admin/field-errors.ts): the API's rules as sentences about a field. */
import { describe, expect, test } from 'vitest';
import { humanProblem, problemsOf } from '../../src/admin/field-errors.ts';

describe('humanProblem', () => {
  test.each([
    ['Title', 'is required (string)', 'Title is required.'],
    ['Title', 'expected string to have >=1 characters, got ``', 'Title is required.'],
    ['Title', 'expected string to have <=200 characters, got `xxxx…`', 'Title may have at most 200 characters.'],
    ['Tags', 'expected array to have <=30 items, got `[…]`', 'Tags may have at most 30 items.'],
    ['Status', 'expected one of `active` | `expired`, got `nope`', 'Status: choose one of active, expired.'],
    ['Application URL', 'expected an absolute http:// or https:// URL, got `ftp://x`', 'Application URL must be an absolute http:// or https:// URL.'],
    ['Slug', 'expected lowercase letters, digits and single hyphens, like `cloud-credits`', 'Slug must be lowercase letters, digits and single hyphens, like cloud-credits.'],
    ['Slug', 'is taken by another deal; choose another slug', 'Slug: is taken by another deal; choose another slug.'],
  ])('%s: %s', (label, message, words) => {
    expect(humanProblem(label, message)).toBe(words);
  });
});

describe('problemsOf', () => {
  test('every listed field, a list item under its list', () => {
    expect(
      problemsOf({
        code: 'validation_error',
        error: 'x',
        fields: [
          { field: 'title', message: 'is required (string)' },
          { field: 'tags.2', message: 'too long' },
        ],
      }),
    ).toEqual([
      { field: 'title', message: 'is required (string)' },
      { field: 'tags', message: 'too long' },
    ]);
  });

  test('without `fields`: the field `error` names, a taken slug, or the failure alone', () => {
    expect(problemsOf({ code: 'validation_error', error: 'deal.slug: expected lowercase letters.' })).toEqual([{ field: 'slug', message: 'expected lowercase letters.' }]);
    expect(problemsOf({ code: 'conflict', error: 'A deal with slug `aws` already exists.' })).toEqual([{ field: 'slug', message: 'is taken by another deal; choose another slug' }]);
    expect(problemsOf({ code: 'service_unavailable', error: 'The content store cannot take changes right now.' })).toEqual([
      { field: undefined, message: 'The content store cannot take changes right now.' },
    ]);
  });
});
