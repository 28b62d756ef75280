/**
 * Shared field helpers for the content and API schemas: one definition of a slug, a date,
 * a link, so every resource validates them the same way.
 */
import * as z from 'zod';

/** URL-safe identifier: lowercase letters and digits, single hyphens between them. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A slug such as `aws-activate`.
 * @example slug().parse('cloud-credits')
 */
export function slug() {
  return z
    .string()
    .min(1)
    .max(120)
    .regex(SLUG_PATTERN, { error: 'expected lowercase letters, digits and single hyphens, like `cloud-credits`' });
}

/** Record identifier: letters, digits, `_` and `-`, 3 to 64 characters, such as `d-4k9x2mpq`. */
export function recordId() {
  return z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/, { error: 'expected 3 to 64 letters, digits, `_` or `-`' });
}

/** ISO 8601 calendar date `YYYY-MM-DD` (DESIGN: dates in content are calendar dates). */
export function isoDate() {
  return z.iso.date({ error: 'expected a date as YYYY-MM-DD' });
}

/**
 * An absolute http(s) URL; `z.url()` alone would accept `javascript:` links. The leading
 * pattern also reaches the generated JSON Schema, so ajv refuses other schemes too.
 */
export function httpUrl() {
  return z
    .string()
    .regex(/^https?:\/\//i, { error: 'expected an absolute http:// or https:// URL' })
    .pipe(z.url({ protocol: /^https?$/, error: 'expected an absolute http:// or https:// URL' }))
    .meta({ format: 'uri' });
}

/** Non-empty text with surrounding white space removed. */
export function text(max = 500) {
  return z.string().trim().min(1).max(max);
}

/** A list of short strings, such as tags or eligibility rules. */
export function textList(maxItems = 50, maxLength = 300) {
  return z.array(text(maxLength)).max(maxItems);
}

/**
 * A slug made from free text (at most 80 characters); empty when the text has no letters or digits.
 * @example slugify('Stripe Atlas: $100 off') // 'stripe-atlas-100-off'
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}
