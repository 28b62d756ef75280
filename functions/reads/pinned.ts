/** The answers kept precomputed per catalog version: the default lists (no query string). */
import type { Pin } from './catalog-state.ts';
import { dealsAnswer } from './deals.ts';
import { startupsAnswer } from './startups.ts';

export const PINNED: readonly Pin[] = [
  { key: 'deals', compute: dealsAnswer, source: (catalog) => catalog.deals },
  { key: 'startups', compute: startupsAnswer, source: (catalog) => catalog.startups },
];
