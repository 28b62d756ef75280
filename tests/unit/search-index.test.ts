/**
 * The build makes lunr's serialized index and the postings itself, in one pass
 * (src/pipeline/search-index.ts), instead of through `lunr.Builder`. Both must be what
 * `lunr.Builder` made, byte for byte: the starter catalog's deals and startups, and random
 * documents with what could tell the two apart (ids that JavaScript orders as array indices,
 * repeated and stop words, empty fields, other scripts, numbers, punctuation-joined words).
 */
import fc from 'fast-check';
import lunr from 'lunr';
import { describe, expect, test } from 'vitest';
import { DEAL_FIELDS, dealFieldTexts, STARTUP_FIELDS, startupFieldTexts } from '../../src/catalog/index-fields.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { buildDealIndex, buildIndex, buildStartupIndex, type BuiltIndex } from '../../src/pipeline/search-index.ts';
import { lunrJsonText, lunrReference, plainLayout, referenceLayout } from '../helpers/lunr-reference.ts';

/** The built index against lunr.Builder's over the same records. */
function expectSameAsLunr(built: BuiltIndex, reference: ReturnType<typeof lunrReference>): void {
  expect(lunrJsonText(built.postings, built.termIndexes)).toBe(JSON.stringify(reference.lunr));
  expect(built.postings.stats).toEqual(reference.stats);
  expect(plainLayout(built.postings)).toEqual(referenceLayout(reference.lunr, reference.stats));
}

describe('the starter catalog', async () => {
  const { value } = runPipeline(await readContent('content'), { today: '2026-11-29', index: false });
  if (!value) throw new Error('the starter content does not build');
  const { deals, startups, categories } = value.data;

  test(`deals (${deals.length}): lunr's JSON, the statistics and the postings are lunr.Builder's`, () => {
    expectSameAsLunr(
      buildDealIndex(deals, categories),
      lunrReference(DEAL_FIELDS, deals, (deal) => dealFieldTexts(deal, categories)),
    );
  });

  test(`startups (${startups.length}) too, and the index loads into lunr and answers as lunr's own`, () => {
    const built = buildStartupIndex(startups);
    expectSameAsLunr(built, lunrReference(STARTUP_FIELDS, startups, startupFieldTexts));
    const index = lunr.Index.load(JSON.parse(lunrJsonText(built.postings, built.termIndexes)) as object);
    expect(index.search('saas').length).toBeGreaterThan(0);
  });
});

const WORDS = [
  'cloud',
  'credits',
  'credit',
  'the',
  'and',
  'for',
  'aws',
  'Next.js',
  'pre-seed',
  '2026',
  '1.5',
  'москва',
  '東京',
  'café',
  'Straße',
  'e-mail',
  'running',
  'runs',
  'a',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  '',
];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(' '));
/** Ids as editors could write them, some of which JavaScript orders as array indices ("7", "42"). */
const id = fc.oneof(fc.nat({ max: 60 }).map(String), fc.constantFrom('01', '4294967295', '-1', 'd-1', 'acme', 'Z', 'a/b', 'x y'), fc.string({ minLength: 1, maxLength: 6 }));
const records = fc.uniqueArray(fc.record({ id, title: text, body: text, tags: text }), { selector: (r) => r.id, maxLength: 25 });

test('random documents: the same as lunr.Builder byte for byte (300 runs)', () => {
  const fields = { title: 10, body: 1, tags: 3 };
  const texts = (r: { title: string; body: string; tags: string }) => [r.title, r.body, r.tags];
  fc.assert(
    fc.property(records, (docs) => {
      expectSameAsLunr(buildIndex(fields, docs, texts), lunrReference(fields, docs, texts));
    }),
    { numRuns: 300 },
  );
});

test('no documents: an empty index, as lunr makes it', () => {
  const texts = (r: { id: string }) => [r.id];
  expectSameAsLunr(buildIndex({ title: 1 }, [], texts), lunrReference({ title: 1 }, [], texts));
});
