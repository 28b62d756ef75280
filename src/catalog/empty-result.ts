/**
 * What a search that found nothing says (DESIGN "search scope outside the API", issue 13 item 3):
 * what was searched, and the nearest alternatives, which are the categories whose name or slug
 * shares a word with the query. Pure and free of the index code, so the site's server pages, its
 * browser script and the MCP tool word it the same way. The API's body is SPEC's and not touched.
 */
import type { DealCategory, Scope } from '../schemas/category.ts';
import { foldWords } from './fold.ts';

/** The categories offered instead of an empty result, and whether they share a word with the query. */
export interface Alternatives {
  categories: Pick<DealCategory, 'slug' | 'name'>[];
  /** False when no category matched and `categories` lists the scope's categories instead. */
  matched: boolean;
}

/** At most this many categories are offered. */
export const MAX_SUGGESTIONS = 6;

/**
 * Categories (in `scope`) whose name or slug has a word starting like a query word: equal, or the
 * same first five letters, so `accelerater` or `grants` still find Accelerators and Grants. When
 * none does, the scope's categories, so there is always somewhere to go.
 * @example nearestCategories('accelerater without equity', categories, 'all') // { categories: [{ slug: 'accelerators', name: 'Accelerators' }], matched: true }
 */
export function nearestCategories(query: string, categories: readonly DealCategory[], scope: Scope | 'all'): Alternatives {
  const inScope = categories.filter((c) => scope === 'all' || c.scope === scope);
  const words = foldWords(query).filter((w) => w.length >= 2 && !CONNECTIVES.has(w));
  const matching = inScope.filter((c) => {
    const own = new Set([...foldWords(c.name), ...foldWords(c.slug)]);
    return words.some((w) => [...own].some((o) => sameStart(w, o)));
  });
  const chosen = matching.length > 0 ? matching : inScope;
  return { categories: chosen.slice(0, MAX_SUGGESTIONS).map((c) => ({ slug: c.slug, name: c.name })), matched: matching.length > 0 };
}

/** The sentence of `noResultsText` in three parts, so a page can make each category a link. */
export interface NoResultsParts {
  /** Up to the first category: `No deals matched “…” in deals and programs; try the category `. */
  lead: string;
  categories: Alternatives['categories'];
  /** After the last category: `.` */
  tail: string;
}

/**
 * "No deals matched …; try …" in parts: what was searched (query, or "these filters" without one),
 * the type, and the alternatives (outside `all`, searching every type first).
 * @example noResultsParts('accelerater', 'all', alternatives).lead // 'No deals matched “accelerater” in deals and programs; try the category '
 */
export function noResultsParts(query: string | undefined, scope: Scope | 'all', alternatives: Alternatives): NoResultsParts {
  const what = query?.trim() ? `“${query.trim().slice(0, 200)}”` : 'these filters';
  const where = scope === 'all' ? 'deals and programs' : scope === 'programs' ? 'programs only' : 'deals only';
  const wider = scope === 'all' ? '' : 'searching deals and programs together, or ';
  const which = alternatives.matched ? `the ${alternatives.categories.length > 1 ? 'categories' : 'category'} ` : 'other or fewer words, or a category: ';
  return { lead: `No deals matched ${what} in ${where}; try ${wider}${which}`, categories: alternatives.categories, tail: '.' };
}

/**
 * The whole sentence as text.
 * @param category how a category is shown (its name by default; a slug for an agent)
 * @example noResultsText('accelerater', 'all', alternatives) // 'No deals matched “accelerater” in deals and programs; try the category Accelerators.'
 */
export function noResultsText(query: string | undefined, scope: Scope | 'all', alternatives: Alternatives, category: (c: Alternatives['categories'][number]) => string = (c) => c.name): string {
  const parts = noResultsParts(query, scope, alternatives);
  return `${parts.lead}${parts.categories.map(category).join(', ')}${parts.tail}`;
}

// --- internal ---

/** Words of category names that say nothing about the category (`AI and ML credits`). */
const CONNECTIVES = new Set(['and', 'or', 'for', 'the', 'of', 'in', 'to', 'with', 'on', 'by']);

function sameStart(a: string, b: string): boolean {
  if (a === b) return true;
  const n = Math.min(5, a.length, b.length);
  return n >= 4 && a.slice(0, n) === b.slice(0, n);
}
