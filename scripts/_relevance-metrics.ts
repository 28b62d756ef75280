/**
 * Relevance metrics for `npm run eval:search` (issue 13, item 5): pure functions over one
 * ranked list of slugs and the graded judgments of its query. Grades: 2 = exactly what was
 * asked, 1 = acceptable, absent = not relevant.
 */

/** Graded judgments of one query: slug → grade (1 or 2). Empty means the catalog has no answer. */
export type Judgments = Readonly<Record<string, number>>;

/**
 * 1 when a relevant result (any grade) is among the first `k`, else 0.
 * @example successAt(['a', 'b'], { b: 1 }, 5) // 1
 */
export function successAt(ranked: readonly string[], judged: Judgments, k: number): number {
  return ranked.slice(0, k).some((slug) => gradeOf(judged, slug) > 0) ? 1 : 0;
}

/**
 * 1 / rank of the first relevant result (any grade), 0 when none is in the list.
 * @example reciprocalRank(['a', 'b'], { b: 2 }) // 0.5
 */
export function reciprocalRank(ranked: readonly string[], judged: Judgments): number {
  const at = ranked.findIndex((slug) => gradeOf(judged, slug) > 0);
  return at === -1 ? 0 : 1 / (at + 1);
}

/**
 * Normalised discounted cumulative gain at `k`, with exponential gain 2^grade − 1 (Järvelin &
 * Kekäläinen, the form TREC and most engines' evaluations use), so an exact match (2) counts
 * three times an acceptable one (1). The ideal list is every judged slug sorted by grade.
 * 0 when nothing is judged relevant.
 * @example ndcgAt(['b', 'a'], { a: 2, b: 1 }, 10) // (1 + 3/log2(3)) / (3 + 1/log2(3)) ≈ 0.797
 */
export function ndcgAt(ranked: readonly string[], judged: Judgments, k: number): number {
  const ideal = dcg(
    Object.values(judged)
      .filter((g) => g > 0)
      .sort((a, b) => b - a),
    k,
  );
  if (ideal === 0) return 0;
  return (
    dcg(
      ranked.map((slug) => gradeOf(judged, slug)),
      k,
    ) / ideal
  );
}

/**
 * Arithmetic mean; 0 for an empty list (a metric over no queries says nothing, not NaN).
 * @example mean([1, 0, 0.5]) // 0.5
 */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/**
 * Round down to `places` decimals, for floors that the measured score never falls under by rounding.
 * @example floorTo(0.8769, 2) // 0.87
 */
export function floorTo(value: number, places: number): number {
  const scale = 10 ** places;
  // The epsilon keeps 0.29 (stored as 0.28999…) from flooring to 0.28.
  return Math.floor(value * scale + 1e-9) / scale;
}

// --- internal ---

function gradeOf(judged: Judgments, slug: string): number {
  return Object.hasOwn(judged, slug) ? (judged[slug] as number) : 0;
}

function dcg(grades: readonly number[], k: number): number {
  let sum = 0;
  grades.slice(0, k).forEach((grade, i) => (sum += (2 ** grade - 1) / Math.log2(i + 2)));
  return sum;
}
