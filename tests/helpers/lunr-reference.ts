/**
 * The search index as `lunr.Builder` makes it, the way the build made it before
 * src/pipeline/search-index.ts built both forms itself: lunr's serialization and the postings
 * derived from it. tests/unit/search-index.test.ts holds the build's output to these, byte for
 * byte.
 */
import lunr from 'lunr';
import type { IndexStats, PostingsLayout } from '../../src/catalog/search.ts';
import { INDEX_PIPELINE, indexText, SEPARATOR } from '../../src/catalog/tokens.ts';
import { lunrJsonChunks } from '../../src/pipeline/search-index.ts';

/** lunr's JSON of a built index as one string, as `search-index.json` holds it. */
export function lunrJsonText(postings: PostingsLayout, termIndexes: Int32Array): string {
  return Buffer.concat([...lunrJsonChunks(postings, termIndexes)]).toString('utf8');
}

/** `lunr(config)` over `records` (ref `id`, `fields` with their boosts), keeping hold of the builder for its statistics. */
export function lunrReference<T extends { id: string }>(fields: Record<string, number>, records: readonly T[], texts: (r: T) => string[]): { lunr: object; stats: IndexStats } {
  const previous = lunr.tokenizer.separator;
  lunr.tokenizer.separator = SEPARATOR;
  try {
    const builder = new lunr.Builder();
    builder.pipeline.add(...INDEX_PIPELINE);
    builder.searchPipeline.add(lunr.stemmer);
    builder.ref('id');
    const names = Object.keys(fields);
    for (const name of names) builder.field(name, { boost: fields[name] });
    for (const record of records) {
      const values = texts(record);
      builder.add(Object.fromEntries([['id', record.id], ...names.map((name, i) => [name, indexText(values[i] ?? '')])]));
    }
    const index = builder.build();
    const averages = (builder as unknown as { averageFieldLength: Record<string, number> }).averageFieldLength;
    return {
      lunr: index.toJSON(),
      stats: { fields: names, boosts: names.map((name) => fields[name] ?? 1), averageFieldLength: names.map((name) => averages[name] || 0), documentCount: records.length },
    };
  } finally {
    lunr.tokenizer.separator = previous;
  }
}

interface LunrJson {
  fields: string[];
  fieldVectors: [string, number[]][];
  invertedIndex: [string, { _index: number }][];
}

/** A postings layout with plain arrays, for comparing with `toEqual`. */
export type PlainLayout = Omit<PostingsLayout, 'starts' | 'docs' | 'weights'> & { starts: number[]; docs: number[]; weights: number[] };

/** `layout` with plain arrays. */
export function plainLayout(layout: PostingsLayout): PlainLayout {
  return { ...layout, starts: Array.from(layout.starts), docs: Array.from(layout.docs), weights: Array.from(layout.weights) };
}

/** The postings read off a serialized lunr index (what the build did before it made both itself), with plain arrays. */
export function referenceLayout(serialized: object, stats: IndexStats): PlainLayout {
  const json = serialized as LunrJson;
  const fieldNumber = new Map(json.fields.map((f, i) => [f, i]));
  const termByIndex: string[] = [];
  for (const [term, posting] of json.invertedIndex) termByIndex[posting._index] = term;

  const refs: string[] = [];
  const docNumber = new Map<string, number>();
  const collected = new Map<string, Map<number, [number[], number[]]>>();
  for (const [fieldRef, vector] of json.fieldVectors) {
    const slash = fieldRef.indexOf('/');
    const field = fieldNumber.get(fieldRef.slice(0, slash)) ?? 0;
    const ref = fieldRef.slice(slash + 1);
    let doc = docNumber.get(ref);
    if (doc === undefined) {
      doc = refs.push(ref) - 1;
      docNumber.set(ref, doc);
    }
    for (let i = 0; i < vector.length; i += 2) {
      const term = termByIndex[vector[i] ?? -1];
      if (term === undefined) continue;
      let perField = collected.get(term);
      if (!perField) collected.set(term, (perField = new Map()));
      let run = perField.get(field);
      if (!run) perField.set(field, (run = [[], []]));
      run[0].push(doc);
      run[1].push(vector[i + 1] ?? 0);
    }
  }
  const terms = [...collected.keys()].sort();
  const layout: PlainLayout = { refs, terms, stats, starts: [0], docs: [], weights: [] };
  for (const term of terms) {
    for (let field = 0; field < stats.fields.length; field++) {
      const [docs, weights] = collected.get(term)?.get(field) ?? [[], []];
      layout.docs.push(...docs);
      // The postings keep lunr's weights (3 decimals) in thousandths.
      layout.weights.push(...weights.map((weight) => Math.round(weight * 1000)));
      layout.starts.push(layout.docs.length);
    }
  }
  return layout;
}
