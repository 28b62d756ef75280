/**
 * The search index as `lunr.Builder` makes it, the way the build made it before
 * src/pipeline/search-index.ts built both forms itself: lunr's serialization and the compact
 * postings derived from it. tests/unit/search-index.test.ts holds the build's output to these,
 * byte for byte.
 */
import lunr from 'lunr';
import type { CompactIndex, IndexStats } from '../../src/catalog/search.ts';
import { INDEX_PIPELINE, indexText, SEPARATOR } from '../../src/catalog/tokens.ts';

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

/** Compact postings read off a serialized lunr index (what the build did before it made both itself). */
export function compactIndex(serialized: object, stats: IndexStats): CompactIndex {
  const json = serialized as LunrJson;
  const fieldNumber = new Map(json.fields.map((f, i) => [f, i]));
  const termByIndex: string[] = [];
  for (const [term, posting] of json.invertedIndex) termByIndex[posting._index] = term;

  const refs: string[] = [];
  const docNumber = new Map<string, number>();
  const collected = new Map<string, Map<number, [number, number[], number[]]>>();
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
      let slot = perField.get(field);
      if (!slot) perField.set(field, (slot = [field, [], []]));
      slot[1].push(doc);
      slot[2].push(vector[i + 1] ?? 0);
    }
  }
  const terms = [...collected.keys()].sort();
  return { refs, terms, postings: terms.map((term) => [...(collected.get(term)?.values() ?? [])]), stats };
}
