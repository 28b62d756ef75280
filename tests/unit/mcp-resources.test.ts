/**
 * MCP resource reads are served from the documents' cache (issue 11, item 2: each read used to
 * render llms-full.txt anew, 4 MB on a 5,000-deal catalog): one render per catalog version,
 * shared with GET /llms-full.txt, and a new render once the catalog changes. Calls the MCP
 * handler with `new Request(...)` and deps whose catalog the test swaps, as a write does.
 */
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { documentAnswer, documentCacheCounts } from '../../functions/docs/document-cache.ts';
import type { Deps } from '../../functions/deps.ts';
import { SearchGaps } from '../../functions/search-gaps/search-gaps.ts';
import { MemorySearchGapStore } from '../../functions/search-gaps/store.ts';
import { API_ROUTES, documentRoute, type DocumentRoute } from '../../functions/http/routes.ts';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import { createCatalog, withChangedDeals, type Catalog } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { FIXTURES } from '../helpers/server.ts';
import { payloadBytes } from '../../functions/http/bytes-response.ts';

const TODAY = '2026-11-21';
let catalog: Catalog;
/** What the handlers read: only the catalog being served. */
const deps = { state: () => ({ catalog }), searchGaps: new SearchGaps(new MemorySearchGapStore(), () => '2026-11-23') } as unknown as Deps;

beforeAll(async () => {
  const result = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: TODAY });
  if (!result.value) throw new Error('fixture does not build');
  catalog = createCatalog(result.value.data, result.value.postings);
});

/** The MCP endpoint's handler, as the route table wires it (its resources read the documents' cache). */
const handleMcp = (request: Request, served: Deps) => (API_ROUTES.find((route) => route.path === '/mcp')?.methods.POST?.handler ?? fail())(request, served, {} as never);
const fail = (): never => {
  throw new Error('no MCP route');
};

/** `resources/read` of `path` through the MCP handler; the text of its one content block. */
async function readResource(path: string): Promise<string> {
  const request = new Request('http://x/api/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: absolute(catalog.site.baseUrl, path) } }),
  });
  const response = await handleMcp(request, deps);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result?: { contents: { text?: string }[] } };
  return body.result?.contents[0]?.text ?? '';
}

/** The change in the cache counters while `run` runs. */
async function countsDuring(run: () => Promise<unknown>): Promise<{ renders: number; hits: number }> {
  const before = documentCacheCounts();
  await run();
  const after = documentCacheCounts();
  return { renders: after.renders - before.renders, hits: after.hits - before.hits };
}

test('llms-full.txt is rendered once per catalog version for MCP reads and GET alike', async () => {
  let first = '';
  expect(await countsDuring(async () => (first = await readResource(paths.llmsFull)))).toEqual({ renders: 1, hits: 0 });
  expect(await countsDuring(() => readResource(paths.llmsFull))).toEqual({ renders: 0, hits: 1 });
  // The HTTP document is the same cache entry.
  let http = '';
  expect(await countsDuring(async () => (http = new TextDecoder().decode(payloadBytes(documentAnswer(documentRoute(paths.llmsFull) as DocumentRoute, catalog, deps).body))))).toEqual({
    renders: 0,
    hits: 1,
  });
  expect(http).toBe(first);
});

test('a changed catalog (a write) gets a fresh render showing the change, then is cached in turn', async () => {
  const before = await readResource(paths.llmsFull);
  const deal = catalog.deals[0] as Catalog['deals'][0];
  const next = new ContentSnapshot(catalog).withDealChanges([{ ...deal, value: 'A value only the new version has' }], [], TODAY);
  if (!next.value) throw new Error(JSON.stringify(next.diagnostics));
  catalog = withChangedDeals(catalog, next.value.data, next.value.changed, next.value.removedIds);
  let after = '';
  expect(await countsDuring(async () => (after = await readResource(paths.llmsFull)))).toEqual({ renders: 1, hits: 0 });
  expect(before).not.toContain('A value only the new version has');
  expect(after).toContain('A value only the new version has');
  expect(await countsDuring(() => readResource(paths.llmsFull))).toEqual({ renders: 0, hits: 1 });
});

test('llms.txt and sitemap.xml come from the same cache', async () => {
  for (const path of [paths.llms, paths.sitemap]) {
    const first = await countsDuring(() => readResource(path));
    expect(first.renders + first.hits, path).toBe(1);
    expect(await countsDuring(() => readResource(path)), path).toEqual({ renders: 0, hits: 1 });
  }
});
