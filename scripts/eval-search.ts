/**
 * `npm run eval:search`: score our search against the judged queries in
 * tests/relevance/judged-queries.yaml, beside the MiniSearch baseline over the same catalog, and
 * list the queries ours fails (issue 13, item 5). Exits 0 whatever the scores: the floor is
 * enforced by tests/unit/search-relevance.test.ts.
 */
import { evaluate, readFloors, isNoAnswer, type Evaluation, type Scores } from './_relevance-eval.ts';

const started = performance.now();
const result = await evaluate();
console.log(report(result, readFloors(), performance.now() - started));

// --- internal ---

function report(evaluation: Evaluation, floors: ReturnType<typeof readFloors>, ms: number): string {
  const { ours, minisearch } = evaluation;
  const lines = [
    `Judged queries: ${evaluation.queries} (${ours.scores.answerable} with an answer, ${ours.scores.noAnswer} judged to have none); starter catalog, scope=all, status=all, top 10.`,
    '',
    '| metric | ours | MiniSearch | floor (ours) |',
    '|---|---|---|---|',
    row('success@5', ours.scores, minisearch.scores, 'successAt5', floors.successAt5),
    row('MRR', ours.scores, minisearch.scores, 'mrr', floors.mrr),
    row('nDCG@10', ours.scores, minisearch.scores, 'ndcgAt10', floors.ndcgAt10),
    row('zero-result rate (answerable)', ours.scores, minisearch.scores, 'zeroResultRate'),
    row('no-answer precision', ours.scores, minisearch.scores, 'noAnswerPrecision'),
    '',
  ];
  const failing = ours.runs.filter((r) => !r.passed);
  lines.push(`Failing queries for ours (${failing.length}): query → our top 3 | expected (grade)`);
  for (const run of failing) {
    const expected = isNoAnswer(run.judged)
      ? 'nothing'
      : Object.entries(run.judged.relevant)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([slug, grade]) => `${slug} (${grade})`)
          .join(', ') + (Object.keys(run.judged.relevant).length > 4 ? ', …' : '');
    const top = run.ranked.length === 0 ? '(none)' : run.ranked.slice(0, 3).join(', ');
    lines.push(`- [${run.judged.kind}] "${run.judged.query}" → ${top} | ${expected}`);
  }
  lines.push('', `Evaluated in ${Math.round(ms)} ms (build included).`);
  return lines.join('\n');
}

function row(name: string, ours: Scores, baseline: Scores, key: keyof Scores, floor?: number): string {
  const show = (v: number) => v.toFixed(3);
  return `| ${name} | ${show(ours[key])} | ${show(baseline[key])} | ${floor === undefined ? '' : floor.toFixed(2)} |`;
}
