/**
 * The kinds of record an admin manages, as the write path sees them: how a record is kept in
 * the content tree (src/pipeline/record-files.ts), how the served catalog looks it up and is
 * rebuilt after a change, and the words and defaults the API uses for it. Every admin write,
 * the history and revert take one of these, so deals and startups share one machinery.
 */
import { randomBytes } from 'node:crypto';
import { withChangedDeals, withChangedStartups, type Catalog } from '../../src/catalog/catalog.ts';
import type { ChangedCatalog } from '../../src/pipeline/content-snapshot.ts';
import { DEAL_FILES, STARTUP_FILES, type ContentRecord, type RecordFiles } from '../../src/pipeline/record-files.ts';
import type { LogoKind } from '../../src/logos/logo-files.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import type { Startup } from '../../src/schemas/startup.ts';

export interface RecordKind<T extends ContentRecord> {
  files: RecordFiles<T>;
  /** Where its logo files are kept (src/logos/logo-files.ts). */
  logos: LogoKind;
  /** The record in messages and the key of its answer (`{ success, deal }`). */
  noun: 'deal' | 'startup';
  /** Its schema's name in /openapi.json. */
  schema: 'Deal' | 'Startup';
  /** The field a slug is made from when none is given. */
  label: 'title' | 'name';
  /** The public read that shows a record, for hints. */
  lookup: string;
  /** What a new record gets when left out (the id and `lastUpdated` aside). */
  defaults: Partial<T>;
  newId: () => string;
  /** The records an admin may change, by slug and by id: drafts included (catalog/drafts.ts), so a draft's slug and id stay taken. */
  bySlug: (catalog: Catalog) => ReadonlyMap<string, T>;
  byId: (catalog: Catalog) => ReadonlyMap<string, T>;
  /** The catalog to serve once `change` is committed (a record saved as a draft leaves the public records). */
  nextCatalog: (current: Catalog, change: ChangedCatalog<T>) => Catalog;
}

export const DEALS: RecordKind<Deal> = {
  files: DEAL_FILES,
  logos: 'deals',
  noun: 'deal',
  schema: 'Deal',
  label: 'title',
  lookup: 'GET /api/v1/deals?id=… or ?slug=…',
  defaults: { status: 'active', featured: false, recommended: false, verified: false },
  newId: () => `d-${randomHex()}`,
  bySlug: (catalog) => catalog.editable.dealBySlug,
  byId: (catalog) => catalog.editable.dealById,
  nextCatalog: (current, change) => withChangedDeals(current, change.data, change.changed, change.removedIds),
};

export const STARTUPS: RecordKind<Startup> = {
  files: STARTUP_FILES,
  logos: 'startups',
  noun: 'startup',
  schema: 'Startup',
  label: 'name',
  lookup: 'GET /api/v1/admin/startups?id=… or ?slug=…',
  defaults: { featured: false, forSale: true },
  newId: () => `s-${randomHex()}`,
  bySlug: (catalog) => catalog.editable.startupBySlug,
  byId: (catalog) => catalog.editable.startupById,
  nextCatalog: (current, change) => withChangedStartups(current, change.data, change.changed, change.removedIds),
};

// --- internal ---

const randomHex = (): string => randomBytes(4).toString('hex');
