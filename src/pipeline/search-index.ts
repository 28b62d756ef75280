/**
 * Stage 4: build the lunr indexes for deals and startups. The serialized index is what
 * `generated/search-index.json` holds; the runtime reads its postings (src/catalog/search.ts).
 */
import lunr from 'lunr';
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';
import { SEPARATOR } from '../catalog/tokens.ts';

/** Field boosts: a word in the title says more than the same word deep in a description. */
const DEAL_FIELDS = { title: 10, provider: 5, tags: 5, description: 1 } as const;
const STARTUP_FIELDS = { name: 10, category: 3, description: 1 } as const;

/** Serialized lunr index (`lunr.Index#toJSON`). */
export type SerializedIndex = object;

/** Index deals by id over title, provider, tags and description (SPEC: GET /deals `search`). */
export function buildDealIndex(deals: readonly Deal[]): SerializedIndex {
  return build(DEAL_FIELDS, deals, (d) => ({
    id: d.id,
    title: d.title,
    provider: d.provider,
    tags: (d.tags ?? []).join(' '),
    description: [d.shortDescription, d.description].filter(Boolean).join('\n'),
  }));
}

/** Index startups by id over name, category and description (SPEC: GET /startups `search`). */
export function buildStartupIndex(startups: readonly Startup[]): SerializedIndex {
  return build(STARTUP_FIELDS, startups, (s) => ({
    id: s.id,
    name: s.name,
    category: s.category.replaceAll('-', ' '),
    description: s.description ?? '',
  }));
}

// --- internal ---

function build<T>(fields: Record<string, number>, records: readonly T[], toDoc: (r: T) => Record<string, string>): SerializedIndex {
  const previous = lunr.tokenizer.separator;
  lunr.tokenizer.separator = SEPARATOR;
  try {
    const index = lunr(function () {
      this.ref('id');
      for (const [name, boost] of Object.entries(fields)) this.field(name, { boost });
      for (const record of records) this.add(toDoc(record));
    });
    return index.toJSON();
  } finally {
    lunr.tokenizer.separator = previous;
  }
}
