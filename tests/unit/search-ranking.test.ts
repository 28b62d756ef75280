/**
 * The matching and ranking rules of issue 13 (docs/api.md "Ranking"), one small corpus per
 * rule: typos by word length, digits never fuzzed, compounds both ways, words dropped least
 * informative first, accents and punctuation folded, and paid placement only breaking ties.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { listDeals } from '../../src/catalog/deals-query.ts';
import { compareDeals } from '../../src/catalog/order.ts';
import { compareHits, loadSearchIndex, search, type SearchHit, type SearchIndex } from '../../src/catalog/search.ts';
import { maxTypos, walkNear } from '../../src/catalog/term-match.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { buildDealIndex, buildStartupIndex } from '../../src/pipeline/search-index.ts';
import { DealSchema, type Deal } from '../../src/schemas/deal.ts';
import { FIXTURES } from '../helpers/server.ts';

// --- helpers ---

let next = 0;
function deal(title: string, extra: Partial<Record<string, unknown>> = {}): Deal {
  next++;
  return DealSchema.parse({
    id: `d-rule${String(next).padStart(5, '0')}`,
    slug: `rule-${next}`,
    title,
    provider: 'Provider',
    category: 'cloud-credits',
    status: 'active',
    applicationUrl: `https://example.com/${next}`,
    ...extra,
  });
}

function indexOf(deals: readonly Deal[]): SearchIndex {
  const built = buildDealIndex(deals);
  return loadSearchIndex(built.postings);
}

/** Titles of the hits, best first (ties by index order). */
function titles(index: SearchIndex, deals: readonly Deal[], query: string): string[] {
  const byId = new Map(deals.map((d) => [d.id, d.title]));
  return search(index, query)
    .sort((a, b) => compareHits(a, b) || a.doc - b.doc)
    .map((hit) => byId.get(index.refs[hit.doc] as string) as string);
}

function only(index: SearchIndex, query: string): SearchHit[] {
  return search(index, query);
}

// --- tests ---

describe('typo tolerance', () => {
  const deals = [deal('HubSpot CRM'), deal('Notion workspace'), deal('Brex card'), deal('Accelerator program'), deal('Stripe payments')];
  const index = indexOf(deals);
  const find = (query: string): string[] => titles(index, deals, query);

  test('the budget depends on the length of the word as typed', () => {
    expect([maxTypos('brex'), maxTypos('notin'), maxTypos('hubspots'), maxTypos('accelerat'), maxTypos('acceleratorss')]).toEqual([0, 1, 1, 2, 2]);
  });

  test('a long word whose stem is short gets no typo on the stem ("wedding" → `wed` is not `web`)', () => {
    const local = [deal('Web hosting'), deal('Wedding venues')];
    const localIndex = indexOf(local);
    expect(titles(localIndex, local, 'wedding')).toEqual(['Wedding venues']);
  });

  test('no typo under 5 letters', () => {
    expect(find('brez the')).toEqual([]);
    expect(find('brx')).toEqual([]);
    expect(find('brex')).toEqual(['Brex card']);
  });

  test('one typo for 5 to 8 letters (a swap of neighbours is one)', () => {
    expect(find('hubspt')).toEqual(['HubSpot CRM']);
    expect(find('notoin the')).toEqual(['Notion workspace']);
    expect(find('stirpe the')).toEqual(['Stripe payments']);
    // Two edits in a 5–8 letter word: no match.
    expect(find('hbspt')).toEqual([]);
    expect(find('strpei the')).toEqual([]);
  });

  test('two typos from 9 letters', () => {
    expect(find('acceleratr')).toEqual(['Accelerator program']);
    expect(find('acelerator')).toEqual(['Accelerator program']);
    expect(find('accelerater')).toEqual(['Accelerator program']);
  });

  test('a word whose mistyped ending hides its stem still finds it (one typo)', () => {
    const long = [deal('Observability suite')];
    expect(titles(indexOf(long), long, 'observabilty')).toEqual(['Observability suite']);
    expect(search(indexOf(long), 'observabilty')[0]?.typos).toBe(1);
  });

  test('a typo match counts its typos; the exact word ranks first', () => {
    const near = [deal('Nation builder'), deal('Notion docs')];
    const hits = search(indexOf(near), 'notion the').sort(compareHits);
    expect(hits.map((h) => [h.typos, h.inexact])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(titles(indexOf(near), near, 'notion the')).toEqual(['Notion docs', 'Nation builder']);
  });

  test('words with a digit are never fuzzed, whatever their length', () => {
    const numbered = [deal('H100 GPU hours'), deal('Credits 20000 dollars'), deal('gpt4turbo access')];
    const numberedIndex = indexOf(numbered);
    expect(maxTypos('20001')).toBe(0);
    expect(maxTypos('gpt4turbo')).toBe(0);
    expect(only(numberedIndex, '20001 the')).toEqual([]);
    expect(only(numberedIndex, 'gpt5turbo the')).toEqual([]);
    expect(titles(numberedIndex, numbered, '20000 the')).toEqual(['Credits 20000 dollars']);
  });

  test('the distance counts a swap as one edit and reads prefixes of the word', () => {
    const distanceOf = (term: string, word: string, budget: number, prefix = word.length): number | undefined => {
      let found: number | undefined;
      walkNear([term], term[0] as string, [word], budget, (_, distance) => (found = distance(0, prefix)));
      return found;
    };
    expect(distanceOf('databas', 'databs', 1)).toBe(1);
    expect(distanceOf('notion', 'notoin', 1)).toBe(1);
    expect(distanceOf('abcdef', 'uvwxyz', 2)).toBeUndefined();
    expect(distanceOf('host', 'hosting', 0, 4)).toBe(0);
  });
});

describe('compound words, both ways', () => {
  const deals = [deal('DigitalOcean Hatch'), deal('Mongo DB Atlas'), deal('Next.js hosting'), deal('Y Combinator'), deal('Ocean freight')];
  const index = indexOf(deals);
  const find = (query: string): string[] => titles(index, deals, query);

  test('adjacent query words joined match a compound term', () => {
    expect(find('digital ocean')[0]).toBe('DigitalOcean Hatch');
    expect(search(index, 'digital ocean').sort(compareHits)[0]?.words).toBe(2);
  });

  test('one query word split in two matches two indexed terms', () => {
    expect(find('mongodb')).toEqual(['Mongo DB Atlas']);
    expect(find('ycombinator')).toEqual(['Y Combinator']);
  });

  test('a split compound needs both halves in one field', () => {
    const apart = [deal('Drop shipping', { description: 'Every box ships free.' }), deal('Drop box storage')];
    expect(titles(indexOf(apart), apart, 'dropbox')).toEqual(['Drop box storage']);
  });

  test('punctuation-joined words are found written together or apart', () => {
    expect(find('nextjs')).toEqual(['Next.js hosting']);
    expect(find('next js')).toEqual(['Next.js hosting']);
    expect(find('next.js')).toEqual(['Next.js hosting']);
  });
});

describe('words dropped when not every word matches (never empty while some word matches)', () => {
  const deals = [deal('Notion discount'), deal('Notion for startups'), deal('HubSpot discount'), deal('Figma discount'), deal('Linear discount')];
  const index = indexOf(deals);
  const find = (query: string): string[] => titles(index, deals, query);

  test('a word matching nothing does not empty the answer', () => {
    expect(find('zzqqxx notion')).toEqual(['Notion discount', 'Notion for startups']);
    expect(find('notion zzqqxx')).toEqual(['Notion discount', 'Notion for startups']);
  });

  test('every word first, then the documents keeping the more informative word', () => {
    // `discount` is in four documents, `notion` in two: `discount` is dropped first.
    const found = find('discount notion');
    expect(found[0]).toBe('Notion discount');
    expect(found[1]).toBe('Notion for startups');
    expect(found.slice(2).sort()).toEqual(['Figma discount', 'HubSpot discount', 'Linear discount']);
  });

  test('a query without a searchable word still matches nothing', () => {
    expect(find('the of and')).toEqual([]);
    expect(find('zzqqxx')).toEqual([]);
  });
});

describe('accents, case and punctuation are folded on both sides', () => {
  const deals = [deal('Café Zürich coworking'), deal('Cafe Zurich bakery'), deal('Señor Ñandú')];
  const index = indexOf(deals);
  const find = (query: string): string[] => titles(index, deals, query).sort();

  test('accented and plain forms find each other', () => {
    const both = ['Cafe Zurich bakery', 'Café Zürich coworking'];
    expect(find('cafe zurich')).toEqual(both);
    expect(find('CAFÉ ZÜRICH')).toEqual(both);
    expect(find('senor nandu')).toEqual(['Señor Ñandú']);
    expect(find('café, zürich!')).toEqual(both);
  });
});

describe('ranking: relevance first, paid placement only breaks ties', () => {
  let catalog: ReturnType<typeof createCatalog>;
  const ranked = (query: string): string[] => listDeals(catalog, { search: query }).positions.map((p) => catalog.deals[p]?.title ?? '');

  beforeAll(async () => {
    const base = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: '2026-11-21' }).value?.data;
    if (!base) throw new Error('fixture did not build');
    const deals = [
      deal('Sponsored hosting bundle', { featured: true, description: 'Includes some cloud storage.' }),
      deal('Cloud credits for startups'),
      deal('Cloud hosting', { featured: true }),
      deal('Cloud hosting', { recommended: false }),
      deal('Kubernetes clusters', { featured: true, tags: ['clouds'] }),
    ].sort(compareDeals);
    const built = buildDealIndex(deals, base.categories);
    const startups = buildStartupIndex(base.startups);
    catalog = createCatalog({ ...base, deals }, { deals: built.postings, startups: startups.postings });
  });

  test('a featured deal with a weaker match ranks below a better match', () => {
    const found = ranked('cloud credits');
    expect(found[0]).toBe('Cloud credits for startups');
    expect(found.indexOf('Sponsored hosting bundle')).toBeGreaterThan(found.indexOf('Cloud hosting'));
  });

  test('between equally relevant deals, the featured one comes first', () => {
    const hosting = ranked('cloud hosting');
    expect(hosting.slice(0, 2)).toEqual(['Cloud hosting', 'Cloud hosting']);
    const [first] = listDeals(catalog, { search: 'cloud hosting' }).positions;
    expect(catalog.deals[first as number]?.featured).toBe(true);
  });

  test('the answer order never contradicts the ranking rules', () => {
    for (const query of ['cloud', 'cloud credits', 'hosting', 'cloud hosting bundle', 'kubernets', 'clouds storag']) {
      const { index, positions } = catalog.dealSearch;
      const hitByPosition = new Map(search(index, query).map((hit) => [positions[hit.doc] as number, hit]));
      const order = listDeals(catalog, { search: query }).positions.map((p) => hitByPosition.get(p) as SearchHit);
      for (let i = 1; i < order.length; i++) expect(compareHits(order[i - 1] as SearchHit, order[i] as SearchHit), query).toBeLessThanOrEqual(0);
    }
  });
});

describe('synonyms rank as the words they stand for', () => {
  test('a synonym longer than the word typed cannot outrank it by its length, nor match by a part of it', async () => {
    const base = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: '2026-11-21' }).value?.data;
    if (!base) throw new Error('fixture did not build');
    const deals = [
      deal('Partial', { description: 'Content and delivery, nothing else.' }),
      deal('Literal', { description: 'A CDN.' }),
      deal('Spelled out', { description: 'A content delivery network at the edge.' }),
    ].sort(compareDeals);
    const built = buildDealIndex(deals, base.categories);
    const startups = buildStartupIndex(base.startups);
    const catalog = createCatalog({ ...base, deals, synonyms: { 'two-way': [['cdn', 'content delivery network']], 'one-way': {} } }, { deals: built.postings, startups: startups.postings });
    const found = listDeals(catalog, { search: 'cdn' }).positions.map((p) => catalog.deals[p]?.title);
    expect(found.sort()).toEqual(['Literal', 'Spelled out']);
    // Both now match the one word "cdn" fully and exactly: the deal saying "content delivery
    // network" (three words) ranks by field weight like the literal one, not above it by word count.
    const partial = listDeals(catalog, { search: 'cdn content' }).positions.map((p) => catalog.deals[p]?.title);
    expect(partial[partial.length - 1]).toBe('Partial');
  });
});
