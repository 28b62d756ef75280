/**
 * GET /api/v1/categories: the catalog's deal and startup categories (slug, name, scope), so a
 * client can offer the real values of `category` instead of guessing them.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { jsonAnswer, serveAnswer, type Answer, type AnswerDeps } from '../http/answer.ts';
import { PUBLIC_CACHE } from '../http/params.ts';

export function categoriesAnswer(catalog: Catalog): Answer {
  const { deals, startups } = catalog.categories;
  return jsonAnswer(200, { success: true, deals, startups }, PUBLIC_CACHE);
}

export const getCategories = (request: Request, deps: AnswerDeps): Promise<Response> => serveAnswer(request, deps, 'categories', categoriesAnswer);
