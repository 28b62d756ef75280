/**
 * The metrics of `npm run eval:search` (scripts/_relevance-metrics.ts) on examples computed by
 * hand, and the per-engine scoring (scripts/_relevance-eval.ts) over a fake engine.
 */
import { describe, expect, test } from 'vitest';
import { scoreEngine, type JudgedQuery } from '../../scripts/_relevance-eval.ts';
import { floorTo, mean, ndcgAt, reciprocalRank, successAt } from '../../scripts/_relevance-metrics.ts';

describe('successAt', () => {
  test('a relevant result at rank k counts, one at rank k + 1 does not', () => {
    expect(successAt(['a', 'b', 'c', 'd', 'x'], { x: 1 }, 5)).toBe(1);
    expect(successAt(['a', 'b', 'c', 'd', 'e', 'x'], { x: 2 }, 5)).toBe(0);
  });
  test('an empty result list is a failure', () => {
    expect(successAt([], { x: 2 }, 5)).toBe(0);
  });
});

describe('reciprocalRank', () => {
  test('1 / rank of the first relevant result, whatever its grade', () => {
    expect(reciprocalRank(['x'], { x: 2 })).toBe(1);
    expect(reciprocalRank(['a', 'b', 'x', 'y'], { x: 1, y: 2 })).toBeCloseTo(1 / 3, 10);
  });
  test('0 when no relevant result is listed', () => {
    expect(reciprocalRank(['a', 'b'], { x: 2 })).toBe(0);
    expect(reciprocalRank([], { x: 2 })).toBe(0);
  });
});

describe('ndcgAt', () => {
  test('the ideal order scores 1', () => {
    expect(ndcgAt(['a', 'b'], { a: 2, b: 1 }, 10)).toBeCloseTo(1, 10);
  });
  test('swapped grades: (1/log2 2 + 3/log2 3) / (3/log2 2 + 1/log2 3)', () => {
    // DCG = 1 + 3/1.58496 = 2.89279; IDCG = 3 + 1/1.58496 = 3.63093; ratio 0.79671.
    expect(ndcgAt(['b', 'a'], { a: 2, b: 1 }, 10)).toBeCloseTo(0.79671, 5);
  });
  test('a miss at rank 1 pushes the only exact match down: (3/log2 3) / 3', () => {
    expect(ndcgAt(['x', 'a'], { a: 2 }, 10)).toBeCloseTo(0.63093, 5);
  });
  test('judged deals that were not returned lower the score (the ideal list has them all)', () => {
    // DCG = 3; IDCG = 3 + 3/log2 3 = 4.89279.
    expect(ndcgAt(['a'], { a: 2, b: 2 }, 10)).toBeCloseTo(3 / 4.89279, 5);
  });
  test('results past k do not count', () => {
    const ranked = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'x'];
    expect(ndcgAt(ranked, { x: 2 }, 10)).toBe(0);
  });
  test('0 when nothing is judged relevant', () => {
    expect(ndcgAt(['a'], {}, 10)).toBe(0);
  });
});

describe('mean and floorTo', () => {
  test('mean of nothing is 0, not NaN', () => {
    expect(mean([])).toBe(0);
    expect(mean([1, 0, 0.5])).toBe(0.5);
  });
  test('floorTo rounds down and survives binary fractions', () => {
    expect(floorTo(0.8769, 2)).toBe(0.87);
    expect(floorTo(0.29, 2)).toBe(0.29);
    expect(floorTo(1, 2)).toBe(1);
  });
});

describe('scoreEngine', () => {
  const queries: JudgedQuery[] = [
    { query: 'hit', kind: 'test', relevant: { a: 2 } },
    { query: 'late', kind: 'test', relevant: { a: 2 } },
    { query: 'empty', kind: 'test', relevant: { a: 1 } },
    { query: 'nonsense', kind: 'no-answer', relevant: {} },
    { query: 'noise', kind: 'no-answer', relevant: {} },
  ];
  const answers: Record<string, string[]> = { hit: ['a'], late: ['b', 'c', 'd', 'e', 'f', 'a'], empty: [], nonsense: [], noise: ['b'] };
  const { scores, runs } = scoreEngine(queries, (q) => answers[q] ?? []);

  test('answerable and no-answer queries are scored apart', () => {
    expect(scores.answerable).toBe(3);
    expect(scores.noAnswer).toBe(2);
    expect(scores.successAt5).toBeCloseTo(1 / 3, 10);
    expect(scores.mrr).toBeCloseTo((1 + 1 / 6 + 0) / 3, 10);
    expect(scores.ndcgAt10).toBeCloseTo((1 + 1 / Math.log2(7) + 0) / 3, 10);
    expect(scores.zeroResultRate).toBeCloseTo(1 / 3, 10);
    expect(scores.noAnswerPrecision).toBe(0.5);
  });
  test('a query passes with a relevant deal in the top 5, or with nothing when it has no answer', () => {
    expect(runs.map((r) => [r.judged.query, r.passed])).toEqual([
      ['hit', true],
      ['late', false],
      ['empty', false],
      ['nonsense', true],
      ['noise', false],
    ]);
  });
});
