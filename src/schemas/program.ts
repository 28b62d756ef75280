/**
 * The facts founders compare between programs (issue 15): equity taken, the stages a program
 * is for, where it is open, its next deadline. Optional fields of the Deal schema (deal.ts), so
 * the editors' JSON Schema, the OpenAPI component and `npm run check` follow; the list filters
 * (query.ts) take the same values. docs/editing-content.md "Program facts" says how to fill them.
 */
import * as z from 'zod';

/** Funding stages, earliest first (the order a range is read in: "Idea to seed"). */
export const STAGES = ['idea', 'pre-seed', 'seed', 'series-a', 'growth'] as const;

/**
 * Regions, each inside its parent (`global` contains every other one). A country is inside its
 * continent or union; the filter `region=` matches a program whose region overlaps the one
 * asked for (one contains the other). Add a country here, with its parent, when content needs it.
 */
export const REGION_PARENTS = {
  global: undefined,
  africa: 'global',
  asia: 'global',
  europe: 'global',
  'latin-america': 'global',
  'middle-east': 'global',
  'north-america': 'global',
  oceania: 'global',
  eu: 'europe',
  uk: 'europe',
  fr: 'eu',
  de: 'eu',
  us: 'north-america',
  ca: 'north-america',
  in: 'asia',
} as const satisfies Record<string, string | undefined>;

export type Stage = (typeof STAGES)[number];
export type Region = keyof typeof REGION_PARENTS;
export const REGIONS = Object.keys(REGION_PARENTS) as Region[];

export const StageSchema = z.enum(STAGES);
export const RegionSchema = z.enum(REGIONS as [Region, ...Region[]]);

/** The program facts as Deal fields (all optional: left out when the program does not say). */
export const programFields = {
  equityPercent: z
    .number()
    .min(0, { error: 'expected a percentage from 0 to 100' })
    .max(100, { error: 'expected a percentage from 0 to 100' })
    .describe('Share of the company the program takes, in percent (`7` for 7%); `0` when it takes no equity. Left out when unknown.')
    .optional(),
  stages: z.array(StageSchema).min(1).max(STAGES.length).describe('Funding stages the program is for.').optional(),
  regions: z.array(RegionSchema).min(1).max(REGIONS.length).describe('Where startups must be based (or move to) to take part; `global` when anywhere.').optional(),
  nextDeadline: z.iso.date({ error: 'expected a date as YYYY-MM-DD' }).describe('Next application deadline (YYYY-MM-DD), when one is published.').optional(),
};

/**
 * Whether two regions overlap: the same, or one inside the other.
 * @example regionsOverlap('fr', 'europe') // true
 * @example regionsOverlap('fr', 'uk') // false
 */
export function regionsOverlap(a: Region, b: Region): boolean {
  return within(a, b) || within(b, a);
}

// --- internal ---

/** Whether `inner` is `outer` or lies inside it. */
function within(inner: Region, outer: Region): boolean {
  for (let at: Region | undefined = inner; at !== undefined; at = REGION_PARENTS[at]) if (at === outer) return true;
  return false;
}
