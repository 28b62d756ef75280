/** The answers kept precomputed per catalog version: the default lists (no query string). */
import type { Pin } from './catalog-state.ts';
import { dealsAnswer } from './deals.ts';
import { startupsAnswer } from './startups.ts';

// Each list's bytes, made anew whenever its records change (catalog.ts), stand for the records:
// reading `catalog.deals` would parse records not parsed yet (records-in-file.ts).
export const PINNED: readonly Pin[] = [
  { key: 'deals', compute: dealsAnswer, source: (catalog) => catalog.dealJson },
  { key: 'startups', compute: startupsAnswer, source: (catalog) => catalog.startupJson },
];
