/**
 * Documents (llms files, sitemap, robots, OpenAPI, discovery documents: http/routes.ts
 * `DOCUMENT_ROUTES`) rendered once per catalog: every content change makes a new catalog
 * object, so a WeakMap keyed by it needs no invalidation. GET answers and the MCP resources
 * read the same cache (rendering llms-full.txt per MCP read let small requests cost seconds).
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { textAnswer, type Answer } from '../http/answer.ts';
import type { DocumentDeps, DocumentRoute } from '../http/routes.ts';

interface Rendered {
  text: string;
  answer: Answer;
}

const rendered = new WeakMap<Catalog, Map<string, Rendered>>();
const counts = { renders: 0, hits: 0 };

/** How often a document was rendered, and how often it came from the cache, since start. */
export const documentCacheCounts = (): { renders: number; hits: number } => ({ ...counts });

/** The answer of a document for `catalog` (ETag, compression and 304 are the sender's). */
export function documentAnswer(route: DocumentRoute, catalog: Catalog, deps: DocumentDeps): Answer {
  return renderedDocument(route, catalog, deps).answer;
}

/** The text of a document for `catalog` (what the MCP resources return). */
export function documentText(route: DocumentRoute, catalog: Catalog, deps: DocumentDeps): string {
  return renderedDocument(route, catalog, deps).text;
}

// --- internal ---

function renderedDocument(route: DocumentRoute, catalog: Catalog, deps: DocumentDeps): Rendered {
  let documents = rendered.get(catalog);
  if (!documents) rendered.set(catalog, (documents = new Map()));
  let document = documents.get(route.path);
  if (document) {
    counts.hits++;
    return document;
  }
  counts.renders++;
  const text = route.render(catalog, deps);
  const answer = textAnswer(200, text, { 'Cache-Control': 'public, max-age=300', ...route.headers });
  answer.headers['Content-Type'] = route.type;
  documents.set(route.path, (document = { text, answer }));
  return document;
}
