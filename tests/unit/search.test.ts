/**
 * The custom query evaluator (src/catalog/search.ts) against real lunr over the same serialized
 * index, where their semantics still meet: a single exact word has the same documents and scores,
 * and every document lunr's AND query finds is a hit matching every word. Beyond that the
 * evaluator is more lenient (typos, compounds, fewer words: tests/unit/search-ranking.test.ts).
 * Also the query tokenizer (src/catalog/tokens.ts).
 *
 * The lunr side restates DESIGN "search syntax" with lunr's own query API: every word a
 * REQUIRED clause run through the search pipeline; the last word (two characters or more) a
 * TRAILING wildcard over its stem or over the word as typed.
 */
import { join } from 'node:path';
import lunr from 'lunr';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  compareHits,
  compareHitsAt,
  hitAt,
  hitColumnsOf,
  loadSearchIndex,
  search,
  searchColumns,
  STAMP_RESTART,
  withDocuments,
  type HitColumns,
  type SearchHit,
  type SearchIndex,
} from '../../src/catalog/search.ts';
import { foldText, MAX_QUERY_WORDS, queryWords } from '../../src/catalog/tokens.ts';
import { layoutOfJson } from '../../src/catalog/postings-file.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { buildDealIndex } from '../../src/pipeline/search-index.ts';
import { lunrJsonText } from '../helpers/lunr-reference.ts';
import { DealSchema, type Deal } from '../../src/schemas/deal.ts';
import { FIXTURES } from '../helpers/server.ts';
import { seededRandom as random } from '../../scripts/seeded-random.ts';

// --- reference: the same query through lunr ---

const { REQUIRED } = lunr.Query.presence;
const { TRAILING } = lunr.Query.wildcard;

interface RefWord {
  /** The word as typed, lower-cased: what a prefix extends. */
  typed: string;
  /** What the search pipeline stems (the index pipeline has no trimmer: SEPARATOR leaves no punctuation). */
  word: string;
  last: boolean;
}

/** Words of a query as the index pipeline sees them: lower-cased, stop words out. */
function referenceWords(text: string): RefWord[] {
  const all = foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const words: RefWord[] = [];
  all.forEach((typed, i) => {
    const token = new lunr.Token(typed, {});
    if (token.toString() === '' || !lunr.stopWordFilter(token)) return;
    words.push({ typed, word: token.toString(), last: i === all.length - 1 });
  });
  return words;
}

const stemOf = (word: string): string => lunr.stemmer(new lunr.Token(word, {})).toString();

/**
 * lunr's results for a query, by ref, with lunr's scores. A prefix word is two lunr queries
 * (its stem with a trailing wildcard, and the word as typed with one), united; a document's
 * score is the one from the stem query when it matched that one.
 */
function lunrResults(index: lunr.Index, text: string): Map<string, number> {
  const words = referenceWords(text);
  if (words.length === 0) return new Map();
  const last = words[words.length - 1] as RefWord;
  const prefixed = last.last && last.typed.length >= 2;
  const exact = prefixed ? words.slice(0, -1) : words;
  const run = (wildcard?: string) =>
    index.query((q) => {
      for (const { word } of exact) q.term(word, { presence: REQUIRED, usePipeline: true });
      if (wildcard !== undefined) q.term(wildcard, { presence: REQUIRED, usePipeline: false, wildcard: TRAILING });
    });
  const results = new Map<string, number>();
  const runs = prefixed ? [run(stemOf(last.word)), run(last.typed)] : [run()];
  for (const r of runs) for (const { ref, score } of r) if (!results.has(ref)) results.set(ref, score);
  return results;
}

// --- helpers ---

interface Corpus {
  lunr: lunr.Index;
  index: SearchIndex;
}

function corpus(deals: readonly Deal[]): Corpus {
  const built = buildDealIndex(deals);
  return { lunr: lunr.Index.load(JSON.parse(lunrJsonText(built.postings, built.termIndexes)) as object), index: loadSearchIndex(built.postings) };
}

/** The evaluator's results, by ref. */
function ours(c: Corpus, text: string): Map<string, number> {
  return new Map(search(c.index, text).map((hit) => [c.index.refs[hit.doc] as string, hit.score]));
}

/** The hits that matched every word exactly: no typo, no prefix extension, no split compound. */
function exactOnly(c: Corpus, text: string): Map<string, number> {
  return new Map(
    search(c.index, text)
      .filter((h) => h.typos === 0 && h.inexact === 0)
      .map((hit) => [c.index.refs[hit.doc] as string, hit.score]),
  );
}

const sortedRefs = (results: Map<string, number>): string[] => [...results.keys()].sort();

/** Refs by score (highest first), ties by ref; scores rounded so float noise cannot reorder ties. */
const ranked = (results: Map<string, number>, scale = 1): string[] => [...results].sort(([ra, a], [rb, b]) => Math.round((b - a) * scale * 1e9) || (ra < rb ? -1 : 1)).map(([ref]) => ref);

const VOCABULARY = [
  'cloud',
  'clouds',
  'credit',
  'credits',
  'crediting',
  'host',
  'hosting',
  'hosted',
  'database',
  'databases',
  'data',
  'analytics',
  'analysis',
  'analyst',
  'market',
  'marketing',
  'markets',
  'pay',
  'payment',
  'payments',
  'payroll',
  'happy',
  'happiness',
  'run',
  'running',
  'runner',
  'secure',
  'security',
  'securing',
  'startup',
  'startups',
  'start',
  'founder',
  'founders',
  'free',
  'freedom',
  'legal',
  'lawyer',
  'design',
  'designer',
  'designing',
  'email',
  'emails',
  'mail',
  'ai',
  'api',
  'apis',
  'app',
  'apps',
  'apply',
  'application',
  'compute',
  'computing',
  'computer',
  'storage',
  'store',
  'stores',
  'team',
  'teams',
  'grant',
  'grants',
  'granted',
  'program',
  'programs',
  'programming',
  'connect',
  'connection',
  'generous',
  'general',
  'generate',
  '10x',
  '2026',
  'k8s',
  'go',
  'going',
  'gone',
  'zürich',
  'naïve',
];
const PROVIDERS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne'];
const FILLER = ['the', 'and', 'for', 'with', 'of', 'a', 'to', 'your'];

function syntheticDeals(count: number, seed: number): Deal[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const words = (min: number, max: number, extra: readonly string[] = []) => Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, () => pick([...VOCABULARY, ...extra]));
  return Array.from({ length: count }, (_, i) => {
    const description = words(0, 25, FILLER).join(' ');
    return DealSchema.parse({
      id: `d-syn${String(i).padStart(5, '0')}`,
      slug: `synthetic-${i}`,
      title: words(1, 5).join(' '),
      provider: pick(PROVIDERS),
      category: 'cloud-credits',
      status: 'active',
      applicationUrl: `https://example.com/deals/${i}`,
      tags: [...new Set(words(0, 4))],
      ...(next() < 0.5 ? { shortDescription: words(2, 8, FILLER).join(' ') } : {}),
      ...(description ? { description } : {}),
    });
  });
}

/** Queries: every word, every short prefix, capitalised forms, random combinations with stop words. */
function queries(seed: number): string[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const set = new Set<string>();
  for (const word of [...VOCABULARY, ...PROVIDERS.map((p) => p.toLowerCase())]) {
    set.add(word);
    set.add(word.toUpperCase());
    for (let n = 1; n < Math.min(word.length, 6); n++) set.add(word.slice(0, n));
  }
  const prefixes = [...set];
  for (let i = 0; i < 400; i++) {
    const length = 2 + Math.floor(next() * 3);
    const parts = Array.from({ length }, (_, j) => (j === length - 1 && next() < 0.5 ? pick(prefixes) : pick([...VOCABULARY, ...FILLER])));
    set.add(parts.join(next() < 0.8 ? ' ' : ', '));
  }
  return [...set];
}

// --- tests ---

describe.each([
  ['the valid fixture', async () => runPipeline(await readContent(join(FIXTURES, 'valid')), { today: '2026-11-21' }).value?.data.deals ?? []],
  ['200 synthetic deals', () => Promise.resolve(syntheticDeals(200, 42))],
])('search() agrees with lunr over %s', (_name, load) => {
  let c: Corpus;
  let deals: Deal[];
  beforeAll(async () => {
    deals = await load();
    c = corpus(deals);
  });

  test('the corpus is what the test expects', () => {
    expect(deals.length).toBeGreaterThanOrEqual(10);
    expect(c.index.refs).toHaveLength(deals.length);
  });

  test('single words, not the last word, matched exactly: same documents and same scores as lunr', () => {
    let nonEmpty = 0;
    for (const word of VOCABULARY.concat(['aws', 'credits', 'crm', 'startups', 'cloud', 'zürich', 'café', 'mentorship'])) {
      // A stop word after it makes the word a non-last word: matched exactly, not as a prefix.
      const query = `${word} the`;
      // Typo neighbours and split compounds are hits too now; lunr's are the exact ones.
      const mine = exactOnly(c, query);
      const theirs = lunrResults(c.lunr, query);
      expect(sortedRefs(mine), query).toEqual(sortedRefs(theirs));
      // One exact term with boost 1: lunr's cosine score is the plain sum of field weights (ours in thousandths).
      for (const [ref, score] of theirs) expect((mine.get(ref) ?? NaN) / 1000, `${query} ${ref}`).toBeCloseTo(score, 9);
      expect(ranked(mine), query).toEqual(ranked(theirs));
      if (mine.size > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(5);
  });

  test('every document lunr finds (every word, the last also as a prefix) is a hit matching every word', () => {
    let compared = 0;
    for (const query of [...queries(7), ...queries(11)]) {
      const words = queryWords(query).length;
      const mine = new Map(search(c.index, query).map((hit) => [c.index.refs[hit.doc] as string, hit]));
      for (const ref of lunrResults(c.lunr, query).keys()) {
        expect(mine.get(ref)?.words, `${query} ${ref}`).toBe(words);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  test('documents matching every word rank before those matching fewer, and some word matching means some hit', () => {
    let partial = 0;
    for (const query of queries(13).filter((q) => /[\s,]/.test(q))) {
      const hits = search(c.index, query).sort(compareHits);
      for (let i = 1; i < hits.length; i++) expect((hits[i - 1] as SearchHit).words, query).toBeGreaterThanOrEqual((hits[i] as SearchHit).words);
      // Each word alone, as it was in the query: a non-last word exact (a stop word after it), the last as a prefix.
      const anyWordAlone = queryWords(query).some((w) => search(c.index, w.prefix ? w.raw : `${w.raw} the`).length > 0);
      if (anyWordAlone) expect(hits.length, query).toBeGreaterThan(0);
      if (hits.some((h) => h.words < queryWords(query).length)) partial++;
    }
    expect(partial).toBeGreaterThan(10);
  });

  test('a query without a searchable word matches nothing', () => {
    for (const query of ['', ' ', 'the', 'the and of', '...', '*', ':^~', '-+']) expect(search(c.index, query), query).toEqual([]);
  });

  test('repeated queries give the same answer (scratch buffers are reset)', () => {
    const first = ours(c, 'cloud');
    ours(c, 'credits startups');
    ours(c, 'zzz cloud');
    expect(ours(c, 'cloud')).toEqual(first);
  });

  test("a word's kept matches answer as worked-out ones: 400 random queries, each against a copy of the index that keeps none", () => {
    const next = random(31);
    const words = [...c.index.terms.filter((_, i) => i % 7 === 0), 'clud', 'credts', 'mongodb', 'digital', 'ocean', 'x', 'st', 'the'];
    const sorted = (hits: SearchHit[]): SearchHit[] => hits.sort((a, b) => compareHits(a, b) || a.doc - b.doc);
    let kept = 0;
    for (let run = 0; run < 400; run++) {
      const query = Array.from({ length: 1 + Math.floor(next() * 3) }, () => words[Math.floor(next() * words.length)] as string).join(' ');
      const before = c.index.wordMatches.size;
      const answered = sorted(search(c.index, query));
      if (c.index.wordMatches.size === before && queryWords(query).length > 0) kept++;
      // A copy that keeps nothing: every word is worked out.
      const fresh = { ...c.index, wordMatches: { get: () => undefined, set: () => undefined } } as unknown as SearchIndex;
      expect(answered, query).toEqual(sorted(search(fresh, query)));
    }
    expect(kept).toBeGreaterThan(50);
  });

  test('a write makes an index of its own: words looked up before it are looked up again', () => {
    const before = c.index;
    expect(search(before, 'zebracorn')).toEqual([]);
    expect(search(before, 'zebracorm')).toEqual([]);
    const texts = before.stats.fields.map((_, field) => (field === 0 ? 'Zebracorn credits' : ''));
    const after = withDocuments(before, [{ ref: 'd-zebracorn', texts }], []);
    for (const query of ['zebracorn', 'zebracorm', 'zebrac'])
      expect(
        search(after, query).map((hit) => after.refs[hit.doc]),
        query,
      ).toEqual(['d-zebracorn']);
    expect(search(before, 'zebracorn')).toEqual([]);
  });

  test('a server up for a long time: once the stamps pass 2^30 they restart, and answers stay the same', () => {
    const sorted = (hits: SearchHit[]): SearchHit[] => hits.sort((a, b) => compareHits(a, b) || a.doc - b.doc);
    const query = 'credits startups cloud mongodb';
    const expected = sorted(search(c.index, query));
    expect(expected.length).toBeGreaterThan(0);
    // Just below where an Int32Array stamp wraps: without the restart, the next searches' marks never match.
    c.index.scratch.stamp = 2 ** 31 - 3;
    for (let round = 0; round < 3; round++) expect(sorted(search(c.index, query))).toEqual(expected);
    expect(c.index.scratch.stamp).toBeLessThan(STAMP_RESTART);
  });
});

describe('search() over the fixture: concrete answers', () => {
  let c: Corpus;
  let idsOf: (query: string) => string[];
  let rankedIds: (query: string) => string[];
  beforeAll(async () => {
    const deals = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: '2026-11-21' }).value?.data.deals ?? [];
    c = corpus(deals);
    idsOf = (query) => sortedRefs(ours(c, query));
    rankedIds = (query) =>
      search(c.index, query)
        .sort((a, b) => compareHits(a, b) || a.doc - b.doc)
        .map((h) => c.index.refs[h.doc] as string);
  });

  test('stemming and prefix; every word first, then fewer', () => {
    expect(idsOf('credits')).toEqual(['d-aws00001', 'd-dig00007', 'd-gcp00002', 'd-her00009']);
    expect(idsOf('credit')).toEqual(idsOf('credits'));
    expect(idsOf('cred')).toEqual(idsOf('credits'));
    expect(idsOf('AWS')).toEqual(['d-aws00001']);
    // Issue 13: a word no document has no longer empties the answer.
    expect(rankedIds('aws credits')[0]).toBe('d-aws00001');
    expect(rankedIds('aws credits')).toHaveLength(idsOf('credits').length);
    expect(idsOf('atl stripe')).toEqual(['d-str00005']);
    expect(idsOf('stripe atl')).toEqual(['d-str00005']);
  });

  test('a word of non-Latin letters is searchable (tag 東京)', () => {
    expect(idsOf('東京')).toEqual(['d-caf00010']);
  });
});

describe('scores', () => {
  test("equal sums of lunr's weights are ties, whatever floating point would make of them", () => {
    // In floats, 0.1 + 0.2 is 0.30000000000000004 and 0.25 + 0.05 is 0.3: the first document would win on noise.
    const index = loadSearchIndex(
      layoutOfJson({
        refs: ['a', 'b'],
        terms: ['credit', 'startup'],
        postings: [[[0, [0, 1], [0.1, 0.25]]], [[0, [0, 1], [0.2, 0.05]]]],
        stats: { fields: ['title'], boosts: [1], averageFieldLength: [2], documentCount: 2 },
      }),
    );
    const [a, b] = search(index, 'credit startup').sort((x, y) => x.doc - y.doc);
    expect([a?.score, b?.score]).toEqual([300, 300]);
    expect(compareHits(a as SearchHit, b as SearchHit)).toBe(0);
  });
});

describe('hits as columns (what the deal list reads)', () => {
  const rowsOf = (columns: HitColumns): SearchHit[] => Array.from({ length: columns.count }, (_, i) => hitAt(columns, i));

  test('compareHitsAt orders columns as compareHits orders the hits', () => {
    const next = random(23);
    const small = () => Math.floor(next() * 3);
    const hits: SearchHit[] = Array.from({ length: 400 }, (_, doc) => ({ doc, score: small() / 2, words: small(), wordRank: small() / 4, typos: small(), inexact: small() }));
    const columns = hitColumnsOf(hits);
    for (let i = 0; i < hits.length; i++) {
      for (const j of [0, 1, (i * 7) % hits.length, (i * 13 + 5) % hits.length]) {
        expect(Math.sign(compareHitsAt(columns, i, j))).toBe(Math.sign(compareHits(hits[i] as SearchHit, hits[j] as SearchHit)));
      }
    }
  });

  test('the same hits as search(), compared alike, and the index reuses its columns', async () => {
    const deals = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: '2026-11-21' }).value?.data.deals ?? [];
    const { index } = corpus(deals);
    const next = random(19);
    const vocabulary = [...index.terms, 'clud', 'credts', 'stripe', 'aws', 'x'];
    for (let run = 0; run < 300; run++) {
      const query = Array.from({ length: 1 + Math.floor(next() * 3) }, () => vocabulary[Math.floor(next() * vocabulary.length)] as string).join(' ');
      const objects = search(index, query);
      const columns = searchColumns(index, queryWords(query));
      expect(rowsOf(columns), query).toEqual(objects);
      expect(rowsOf(hitColumnsOf(objects)), query).toEqual(objects);
      for (let k = 0; k < 20 && objects.length > 1; k++) {
        const i = Math.floor(next() * objects.length);
        const j = Math.floor(next() * objects.length);
        expect(Math.sign(compareHitsAt(columns, i, j)), query).toBe(Math.sign(compareHits(objects[i] as SearchHit, objects[j] as SearchHit)));
      }
    }
    // What each column holds, read against the rules (a prefix is inexact without a typo; a typo is both).
    const prefix = search(index, 'cred');
    expect(prefix.length).toBeGreaterThan(0);
    for (const hit of prefix) expect([hit.typos, hit.inexact, hit.words]).toEqual([0, 1, 1]);
    expect(search(index, 'credits').some((hit) => hit.typos === 0 && hit.inexact === 0)).toBe(true);
    const typo = search(index, 'stirpe');
    expect(typo.length).toBeGreaterThan(0);
    for (const hit of typo) expect([hit.typos, hit.inexact]).toEqual([1, 1]);
    const first = searchColumns(index, queryWords('credits'));
    expect(first.count).toBeGreaterThan(0);
    expect(searchColumns(index, queryWords('zzzzzz')).count).toBe(0);
    // The same object, refilled: a caller reads its hits before the next search.
    expect(first.count).toBe(0);
  });
});

describe('queryWords', () => {
  test('lower-cases, stems and marks the last word as a prefix', () => {
    expect(queryWords('AWS cred')).toEqual([
      { stem: 'aw', raw: 'aws', prefix: false },
      { stem: 'cred', raw: 'cred', prefix: true },
    ]);
    expect(queryWords('Credits')).toEqual([{ stem: 'credit', raw: 'credits', prefix: true }]);
    expect(queryWords('running happy')).toEqual([
      { stem: 'run', raw: 'running', prefix: false },
      { stem: 'happi', raw: 'happy', prefix: true },
    ]);
  });

  test('splits on anything that is not a letter or a digit', () => {
    expect(queryWords('aws:cloud^2 e-mail').map((w) => w.raw)).toEqual(['aws', 'cloud', '2', 'e', 'mail']);
    expect(queryWords('+aws -cloud* ~x').map((w) => w.raw)).toEqual(['aws', 'cloud', 'x']);
  });

  test('drops stop words; a stop word at the end leaves no prefix word', () => {
    expect(queryWords('the aws')).toEqual([{ stem: 'aw', raw: 'aws', prefix: true }]);
    expect(queryWords('aws the')).toEqual([{ stem: 'aw', raw: 'aws', prefix: false }]);
    expect(queryWords('the and of')).toEqual([]);
  });

  test('no words in empty, blank or punctuation-only text', () => {
    for (const text of ['', '   ', '...', '*:^~+-', '\u0000\u200b']) expect(queryWords(text), JSON.stringify(text)).toEqual([]);
  });

  test('folds accents (DESIGN: accent-insensitive)', () => {
    expect(queryWords('Zürich')).toEqual([{ stem: 'zurich', raw: 'zurich', prefix: true }]);
    expect(queryWords('ZÜRICH café naïve Ångström').map((w) => w.raw)).toEqual(['zurich', 'cafe', 'naive', 'angstrom']);
  });

  test('keeps words written only in non-Latin letters', () => {
    expect(queryWords('東京')).toEqual([{ stem: '東京', raw: '東京', prefix: true }]);
    expect(queryWords('москва').map((w) => w.raw)).toEqual(['москва']);
  });

  test(`uses at most ${MAX_QUERY_WORDS} words, the last of them as the prefix`, () => {
    const words = queryWords(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '));
    expect(words).toHaveLength(MAX_QUERY_WORDS);
    expect(words.at(-1)).toEqual({ stem: `w${MAX_QUERY_WORDS - 1}`, raw: `w${MAX_QUERY_WORDS - 1}`, prefix: true });
    expect(words.filter((w) => w.prefix)).toHaveLength(1);
  });

  test('cuts very long words and very long text', () => {
    const [long] = queryWords('x'.repeat(500));
    expect(long?.raw).toHaveLength(40);
    const huge = queryWords(`${'aws '.repeat(5000)}cloud`);
    expect(huge).toHaveLength(MAX_QUERY_WORDS);
    expect(huge.every((w) => w.raw === 'aws')).toBe(true);
  });
});
