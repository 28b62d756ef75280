/**
 * What the search indexes cover, shared by the build (lunr) and by writes that index a changed
 * deal in place: the fields, their boosts, and each record's text per field.
 */
import type { CategoriesFile } from '../schemas/category.ts';
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';

/**
 * Field boosts: a word in the title or the provider's name says most about what a deal is
 * (people search by brand: "notion", "stripe"); tags and the category say what kind of deal it
 * is; value and eligibility answer "how much" and "who for"; the long description least.
 * Issue 13: index what people search by.
 */
export const DEAL_FIELDS = {
  title: 10,
  provider: 8,
  tags: 5,
  category: 4,
  subcategory: 3,
  value: 2,
  eligibility: 2,
  shortDescription: 2,
  description: 1,
} as const;
export const STARTUP_FIELDS = { name: 10, category: 3, description: 1 } as const;

/**
 * A deal's text per indexed field, in `DEAL_FIELDS` order. The category field holds the slug
 * as words and, when `categories` is given, the category's human name from
 * `content/categories.yaml` ("cloud-credits" → "cloud credits Cloud credits"), so both the name
 * people read on the site and the slug agents pass are searchable.
 * @example dealFieldTexts(deal, data.categories)
 */
export function dealFieldTexts(d: Deal, categories?: CategoriesFile): string[] {
  const categoryName = categories?.deals.find((c) => c.slug === d.category)?.name ?? '';
  return [
    d.title,
    d.provider,
    (d.tags ?? []).join(' '),
    `${d.category.replaceAll('-', ' ')} ${categoryName}`,
    d.subcategory ?? '',
    d.value ?? '',
    (d.eligibility ?? []).join('\n'),
    d.shortDescription ?? '',
    d.description ?? '',
  ];
}

/** A startup's text per indexed field, in `STARTUP_FIELDS` order (SPEC: name, description, category). */
export function startupFieldTexts(s: Startup): string[] {
  return [s.name, s.category.replaceAll('-', ' '), s.description ?? ''];
}
