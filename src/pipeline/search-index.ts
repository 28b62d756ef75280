/**
 * Stage 4: build the lunr indexes for deals and startups. The serialized index is what
 * `generated/search-index.json` holds; the runtime reads its postings (src/catalog/search.ts)
 * and the statistics returned beside it, which let a write index a changed deal in place.
 */
import lunr from 'lunr';
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';
import { DEAL_FIELDS, dealFieldTexts, STARTUP_FIELDS, startupFieldTexts } from '../catalog/index-fields.ts';
import { INDEX_PIPELINE, indexText, SEPARATOR } from '../catalog/tokens.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import type { IndexStats } from '../catalog/search.ts';

/** A serialized lunr index (`lunr.Index#toJSON`) with the builder statistics lunr does not serialise. */
export interface BuiltIndex {
  lunr: object;
  stats: IndexStats;
}

/**
 * Index deals by id over the `DEAL_FIELDS`; with `categories`, each deal's category is indexed
 * by its human name as well as its slug.
 */
export function buildDealIndex(deals: readonly Deal[], categories?: CategoriesFile): BuiltIndex {
  return build(DEAL_FIELDS, deals, (deal) => dealFieldTexts(deal, categories));
}

/** Index startups by id over name, category and description. */
export function buildStartupIndex(startups: readonly Startup[]): BuiltIndex {
  return build(STARTUP_FIELDS, startups, startupFieldTexts);
}

// --- internal ---

/** What `lunr(config)` does, keeping hold of the builder for its statistics. */
function build<T extends { id: string }>(fields: Record<string, number>, records: readonly T[], texts: (r: T) => string[]): BuiltIndex {
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
      stats: {
        fields: names,
        boosts: names.map((name) => fields[name] ?? 1),
        averageFieldLength: names.map((name) => averages[name] || 0),
        documentCount: records.length,
      },
    };
  } finally {
    lunr.tokenizer.separator = previous;
  }
}
