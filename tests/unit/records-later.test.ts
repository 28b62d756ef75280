/**
 * The server answers before it has parsed the records (src/catalog/records-in-file.ts): what the
 * catalog derives from every record at start comes from the summaries the build writes beside
 * the spans, and the records are parsed when first read, or a slice at a time once it listens.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readCatalogFiles, type CatalogFiles } from '../../functions/reads/catalog-files.ts';
import { createCatalog, prepareLookups, type Catalog } from '../../src/catalog/catalog.ts';
import { listDeals } from '../../src/catalog/deals-query.ts';
import { noDrafts } from '../../src/catalog/drafts.ts';
import { readPostingsFile } from '../../src/catalog/postings-file.ts';
import { readCatalogFile, type CatalogFile, type RecordSpans } from '../../src/catalog/record-spans.ts';
import { RecordsInFile } from '../../src/catalog/records-in-file.ts';
import { listStartups } from '../../src/catalog/startups-query.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { DEAL_LIST_PARAMS, parseQuery } from '../../src/schemas/query.ts';

let folder: string;
let files: CatalogFiles;
let spans: RecordSpans;

beforeAll(async () => {
  const { readContent } = await import('../../src/pipeline/read-content.ts');
  const result = runPipeline(await readContent('content'), { today: '2026-11-24' });
  if (!result.value) throw new Error('the sample content does not build');
  folder = await mkdtemp(join(tmpdir(), 'records-later-'));
  await emitCatalog(folder, result.value);
  files = await readCatalogFiles(folder);
  spans = JSON.parse(files.spans as string) as RecordSpans;
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** The catalog as the server loads it from `spans` (the build's, unless changed). */
function loaded(withSpans: RecordSpans | undefined = spans): { catalog: Catalog; file: CatalogFile } {
  const file = readCatalogFile(files.catalog, withSpans);
  const postings = readPostingsFile((files.postings as { binary: Buffer }).binary);
  return { catalog: createCatalog({ ...file.data, drafts: noDrafts() }, postings, file.json, file.later), file };
}

/** A catalog whose records are all parsed at load: the spans without their summaries. */
function parsedWhole(): Catalog {
  const { summaries: _summaries, ...bare } = spans;
  const { catalog, file } = loaded(bare);
  expect(file.later).toBeUndefined();
  return catalog;
}

/** Queries the deal facts answer: no filter or order that reads a record's other fields. */
const QUERIES = ['', 'limit=3', 'category=cloud-credits', 'status=all', 'featured=true', 'recommended=true', 'scope=programs', 'search=cloud', 'search=credits&limit=2', 'search=aws&status=all'];

function dealList(catalog: Catalog, query: string) {
  const parsed = parseQuery(DEAL_LIST_PARAMS, new URLSearchParams(query));
  if (!parsed.ok) throw new Error(`bad query ${query}`);
  return listDeals(catalog, parsed.value);
}

describe('records parsed after the first answers', () => {
  test('lists, filters and searches are answered from the summaries alone, as a catalog parsed whole answers them', () => {
    const whole = parsedWhole();
    const { catalog, file } = loaded();
    const later = file.later;
    if (!later) throw new Error('the build wrote no summaries');
    for (const query of QUERIES) expect(dealList(catalog, query), query).toEqual(dealList(whole, query));
    expect(catalog.dealFacts).toEqual(whole.dealFacts);
    expect(catalog.dealsByCategory).toEqual(whole.dealsByCategory);
    expect(catalog.startupsByCategory).toEqual(whole.startupsByCategory);
    expect(catalog.dealSearch.positions).toEqual(whole.dealSearch.positions);
    expect(catalog.startupSearch.positions).toEqual(whole.startupSearch.positions);
    expect(catalog.dealJson.length).toBe(whole.deals.length);
    // Not one record parsed so far.
    expect([later.deals.done, later.startups.done]).toEqual([false, false]);

    // A filter or an order the summaries do not hold reads the records, which parses them.
    expect(dealList(catalog, 'stage=seed')).toEqual(dealList(whole, 'stage=seed'));
    expect(later.deals.done).toBe(true);
    expect(dealList(catalog, 'sort=value')).toEqual(dealList(whole, 'sort=value'));
    expect(JSON.stringify(catalog.deals)).toBe(JSON.stringify(whole.deals));
    expect(catalog.deals).toBe(catalog.deals);
    expect(listStartups(catalog, { forSale: 'true' })).toEqual(listStartups(whole, { forSale: 'true' }));
    expect(JSON.stringify(catalog.startups)).toBe(JSON.stringify(whole.startups));
    expect(catalog.dealBySlug.get(whole.deals[0]?.slug ?? '')?.id).toBe(whole.deals[0]?.id);
  });

  test('once the server listens, the records are parsed and the lookup maps made, the same records as read', async () => {
    const { catalog, file } = loaded();
    await prepareLookups(catalog);
    expect([file.later?.deals.done, file.later?.startups.done]).toEqual([true, true]);
    const [first] = catalog.deals;
    expect(first && catalog.dealById.get(first.id)).toBe(first);
    expect({ ...catalog }.deals).toBe(catalog.deals);
  });

  test('a search index whose documents are not the records in order is placed by the records, parsed for it', () => {
    const whole = parsedWhole();
    const summaries = spans.summaries;
    if (!summaries) throw new Error('the build wrote no summaries');
    const { catalog, file } = loaded({ ...spans, summaries: { ...summaries, deals: { ...summaries.deals, ids: '0'.repeat(64) } } });
    expect(file.later?.deals.done).toBe(true);
    expect(file.later?.startups.done).toBe(false);
    expect(catalog.dealSearch.positions).toEqual(whole.dealSearch.positions);
  });

  test('summaries that do not describe the records in the spans are not used: every record is parsed at load', () => {
    const summaries = spans.summaries;
    if (!summaries) throw new Error('the build wrote no summaries');
    const { deals } = summaries;
    const wrong = [
      { ...deals, category: deals.category.slice(1) },
      { ...deals, category: deals.category.map(() => deals.categories.length) },
      { ...deals, status: deals.status.map(() => -1) },
      { ...deals, statuses: deals.statuses.map(() => 'archived') },
      { ...deals, categories: deals.categories.map(() => 7) },
      { ...deals, featured: deals.featured.map(() => 2) },
      { ...deals, ids: undefined },
    ];
    for (const bad of wrong) {
      const { file } = loaded({ ...spans, summaries: { ...summaries, deals: bad as typeof deals } });
      expect(file.later).toBeUndefined();
      expect(file.json).toBeDefined();
      expect(file.data.deals).toHaveLength(deals.category.length);
    }
  });
});

describe('RecordsInFile', () => {
  test('parses each record once, in order: a slice per turn of the event loop, the rest when read meanwhile', async () => {
    const parsedAt: number[] = [];
    const records = new RecordsInFile(7, (i) => {
      parsedAt.push(i);
      return { i };
    });
    expect(records.done).toBe(false);
    const turns = records.parseInTurns(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(parsedAt.length).toBeGreaterThan(0);
    expect(parsedAt.length).toBeLessThan(7);
    const all = records.all();
    expect(all.map((r) => r.i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    await turns;
    expect(parsedAt).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(records.all()).toBe(all);
  });
});
