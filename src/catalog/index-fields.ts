/**
 * What the search indexes cover, shared by the build (lunr) and by writes that index a changed
 * deal in place: the fields, their boosts, and each record's text per field.
 */
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';

/** Field boosts: a word in the title says more than the same word deep in a description. */
export const DEAL_FIELDS = { title: 10, provider: 5, tags: 5, description: 1 } as const;
export const STARTUP_FIELDS = { name: 10, category: 3, description: 1 } as const;

/** A deal's text per indexed field, in `DEAL_FIELDS` order (SPEC: title, provider, description, tags). */
export function dealFieldTexts(d: Deal): string[] {
  return [d.title, d.provider, (d.tags ?? []).join(' '), [d.shortDescription, d.description].filter(Boolean).join('\n')];
}

/** A startup's text per indexed field, in `STARTUP_FIELDS` order (SPEC: name, description, category). */
export function startupFieldTexts(s: Startup): string[] {
  return [s.name, s.category.replaceAll('-', ' '), s.description ?? ''];
}
