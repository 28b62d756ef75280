/**
 * Relevance floor (issue 13, item 5): the evaluation of `npm run eval:search` (shared code in
 * scripts/_relevance-eval.ts) over the starter catalog must not score our engine below the
 * floors in tests/relevance/floor.json. Raise the floors when the engine improves; never lower
 * them to make a change pass.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { evaluate, FLOORED, readFloors, type Evaluation } from '../../scripts/_relevance-eval.ts';

let evaluation: Evaluation;
const floors = readFloors();

beforeAll(async () => {
  evaluation = await evaluate();
  const { ours, minisearch } = evaluation;
  const show = (s: typeof ours.scores) => FLOORED.map((m) => `${m} ${s[m].toFixed(3)}`).join(', ');
  // Printed so a run shows how far above (or below) the floor the engine is, beside the baseline.
  console.log(`relevance over ${evaluation.queries} judged queries\n  ours:       ${show(ours.scores)}\n  MiniSearch: ${show(minisearch.scores)}`);
});

describe('search relevance on the judged queries', () => {
  test('the judged set is large enough to mean something (issue 13: at least 80 queries)', () => {
    expect(evaluation.queries).toBeGreaterThanOrEqual(80);
    expect(evaluation.ours.scores.noAnswer).toBeGreaterThan(0);
  });
  test.each(FLOORED)('ours: %s stays at or above its floor', (metric) => {
    expect(evaluation.ours.scores[metric]).toBeGreaterThanOrEqual(floors[metric]);
  });
});
