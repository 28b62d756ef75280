/**
 * The sorted walk of typo matching (src/catalog/term-match.ts) finds exactly the terms, and in
 * the same order (the order a word's scores are summed in), that comparing every term of the
 * word's first letter in full finds: checked against that plain definition on the starter
 * catalog's vocabulary with misspelt query words, and on dense random vocabularies where many
 * terms share prefixes.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { dictionaryOf, maxTypos, typoNeighbours, walkNear } from '../../src/catalog/term-match.ts';
import { processToken } from '../../src/catalog/tokens.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** Optimal-string-alignment distance between `a` and every prefix of `b` (index: the prefix's length), by the full table. */
function distancesToPrefixes(a: string, b: string): number[] {
  const table = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = table[i] as number[];
      const above = table[i - 1] as number[];
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, (table[i - 2]?.[j - 2] as number) + 1);
    }
  }
  return table[a.length] as number[];
}

/**
 * DESIGN "search syntax" typo rules spelt out plainly: every term without a digit that starts
 * with the stem's letter, other than the stem, against the stem (if the stem has a budget of its
 * own), the word as typed, and the word less an ending of up to 3 characters (one more typo, for
 * terms of 5 letters or more); shorter terms first, then in index order.
 */
function plainNeighbours(sorted: readonly string[], stem: string, raw: string): { term: string; typos: number }[] {
  const budget = maxTypos(raw);
  if (budget === 0 || stem.length < 2) return [];
  const near: { term: string; typos: number }[] = [];
  for (const term of sorted) {
    if (term === stem || term[0] !== stem[0] || /\p{N}/u.test(term)) continue;
    const toRaw = distancesToPrefixes(term, raw);
    const toStem = maxTypos(stem) === 0 ? Infinity : (distancesToPrefixes(term, stem)[stem.length] as number);
    const lessEnding = term.length < 5 ? Infinity : Math.min(...toRaw.slice(Math.max(0, raw.length - 3))) + 1;
    const typos = Math.min(toStem, toRaw[raw.length] as number, lessEnding);
    if (typos <= budget) near.push({ term, typos });
  }
  return near.sort((a, b) => a.term.length - b.term.length);
}

function agree(sorted: readonly string[], raw: string, stem = processToken(raw) ?? raw): void {
  expect(typoNeighbours(dictionaryOf(sorted), stem, raw), `${raw} (stem ${stem})`).toEqual(plainNeighbours(sorted, stem, raw));
}

/** A word with up to `edits` random edits: substitution, insertion, deletion or a swap of neighbours. */
const misspelt = (word: string, edits: number) =>
  fc.array(fc.tuple(fc.constantFrom('sub', 'ins', 'del', 'swap'), fc.nat(), fc.constantFrom(...'abcdeilmnorstuy')), { maxLength: edits }).map((steps) => {
    let out = word;
    for (const [kind, at, letter] of steps) {
      const i = out.length === 0 ? 0 : at % out.length;
      if (kind === 'sub') out = out.slice(0, i) + letter + out.slice(i + 1);
      else if (kind === 'ins') out = out.slice(0, i) + letter + out.slice(i);
      else if (kind === 'del') out = out.slice(0, i) + out.slice(i + 1);
      else if (i + 1 < out.length) out = out.slice(0, i) + out[i + 1] + out[i] + out.slice(i + 2);
    }
    return out;
  });

describe('typo neighbours: the sorted walk agrees with comparing every term in full', () => {
  let terms: string[] = [];
  beforeAll(async () => {
    const built = runPipeline(await readContent(join(ROOT, 'content')), { today: '2026-11-29' });
    if (!built.value) throw new Error('the starter content does not build');
    terms = built.value.postings.deals.terms;
  });

  test('the starter vocabulary is large and in code-unit order', () => {
    expect(terms.length).toBeGreaterThan(500);
    expect([...terms].sort()).toEqual(terms);
  });

  test('every term of the starter catalog, as typed and misspelt', () => {
    for (const term of terms.filter((_, i) => i % 5 === 0)) agree(terms, term);
    fc.assert(
      fc.property(
        fc.constantFrom(...terms).chain((term) => misspelt(term, 3)),
        fc.constantFrom('', 'ing', 'ers', 's'),
        (word, ending) => agree(terms, word + ending),
      ),
      { numRuns: 400 },
    );
  });

  test('a stem that differs from the word, and stems under their own budget', () => {
    for (const word of ['acelerater', 'wedding', 'observabilty', 'hostxyz', 'hubspt', 'kubernetse']) agree(terms, word);
    fc.assert(
      fc.property(fc.constantFrom(...terms), fc.constantFrom(...terms), (raw, stem) => agree(terms, raw, stem)),
      { numRuns: 200 },
    );
  });

  test('dense random vocabularies, where most terms share a prefix', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcd'), minLength: 1, maxLength: 11 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 300 }), fc.array(word, { minLength: 1, maxLength: 20 }), (list, queries) => {
        const sorted = [...list].sort();
        for (const raw of queries) agree(sorted, raw);
      }),
      { numRuns: 200 },
    );
  });
});

describe('walkNear', () => {
  /** Each term's distance to `target` as the walk reports it (its row's last value). */
  function distances(sorted: string[], first: string, target: string, budget: number): Record<string, number> {
    const out: Record<string, number> = {};
    walkNear(sorted, first, [target], budget, (term, distance) => {
      if (distance(0, target.length) <= budget) out[term] = distance(0, target.length);
    });
    return out;
  }

  test('a swap of neighbours is one edit', () => {
    expect(distances(['nation', 'notion', 'ocean'], 'n', 'notoin', 1)).toEqual({ notion: 1 });
    expect(distances(['databas', 'database', 'datum'], 'd', 'databs', 1)).toEqual({ databas: 1 });
    expect(distances(['abcdef'], 'a', 'uvwxyz', 2)).toEqual({});
  });

  test('terms are visited with exact distances up to the budget, whatever their neighbours', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abc'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 60 }), word, fc.integer({ min: 0, max: 2 }), (list, target, budget) => {
        const sorted = [...list].sort();
        const first = target[0] as string;
        const expected: Record<string, number> = {};
        for (const term of sorted) {
          const distance = distancesToPrefixes(term, target)[target.length] as number;
          if (term[0] === first && distance <= budget) expected[term] = distance;
        }
        expect(distances(sorted, first, target, budget)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
