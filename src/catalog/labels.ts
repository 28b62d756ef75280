/**
 * The words people see for the catalog's machine values (issue 15): difficulty, status, dates,
 * countries and the startup facts. Content and API keep the machine values; every page and the
 * browser script word them from these tables, so a value is never shown raw in one place and
 * human in another. Pure (no I/O), so the server pages and the instant-search script share it.
 */
import type { Deal, DealStatus } from '../schemas/deal.ts';
import type { Region, Stage } from '../schemas/program.ts';
import type { DealSort } from '../schemas/query.ts';

/** The site's locale for dates and country names (British English, as the content is written). */
export const LOCALE = 'en-GB';

/** What applying takes, for `difficulty`. */
export const DIFFICULTY_LABELS: Readonly<Record<NonNullable<Deal['difficulty']>, string>> = {
  easy: 'Easy to apply',
  medium: 'Some effort to apply',
  hard: 'Demanding application',
};

/** A deal's availability, for `status`. */
export const STATUS_LABELS: Readonly<Record<DealStatus, string>> = {
  active: 'Live',
  expired: 'Expired',
  'coming-soon': 'Coming soon',
  limited: 'Limited availability',
};

/** Funding stages, for `stages` and the `stage` filter. */
export const STAGE_LABELS: Readonly<Record<Stage, string>> = {
  idea: 'Idea',
  'pre-seed': 'Pre-seed',
  seed: 'Seed',
  'series-a': 'Series A',
  growth: 'Series B and later',
};

/** Regions, for `regions` and the `region` filter. */
export const REGION_LABELS: Readonly<Record<Region, string>> = {
  global: 'Worldwide',
  africa: 'Africa',
  asia: 'Asia',
  europe: 'Europe',
  'latin-america': 'Latin America',
  'middle-east': 'Middle East',
  'north-america': 'North America',
  oceania: 'Oceania',
  eu: 'European Union',
  uk: 'United Kingdom',
  fr: 'France',
  de: 'Germany',
  us: 'United States',
  ca: 'Canada',
  in: 'India',
};

/** The orders of a deal list, for the `sort` menu. */
export const SORT_LABELS: Readonly<Record<DealSort, string>> = {
  relevance: 'Best match',
  value: 'Highest value',
  expiry: 'Closing soonest',
  newest: 'Recently updated',
};

/** The one word for a paid placement (`featured` on deals and startups alike). */
export const SPONSORED = 'Sponsored';

/**
 * `rel` of a link out to a record's own sites: a paid placement's links are marked `sponsored`
 * (what search engines ask of paid links); the others `nofollow`, as links the site vouches for
 * only as far as its last check.
 */
export function outboundRel(record: { featured?: boolean }): string {
  return record.featured ? 'sponsored noopener' : 'nofollow noopener';
}
/** An editorial recommendation (`recommended`). */
export const EDITORS_PICK = 'Editor’s pick';

/**
 * Human words for a difficulty; an unknown value is shown as it is.
 * @example difficultyLabel('easy') // 'Easy to apply'
 */
export function difficultyLabel(difficulty: string): string {
  return Object.hasOwn(DIFFICULTY_LABELS, difficulty) ? DIFFICULTY_LABELS[difficulty as keyof typeof DIFFICULTY_LABELS] : difficulty;
}

/**
 * Human words for a status; an unknown value is shown with its hyphens as spaces.
 * @example statusLabel('coming-soon') // 'Coming soon'
 */
export function statusLabel(status: string): string {
  return Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status as DealStatus] : status.replace(/-/g, ' ');
}

/**
 * An ISO date (`YYYY-MM-DD`) as people read it, in the site's locale; anything else unchanged.
 * @example readableDate('2027-03-12') // '12 March 2027'
 */
export function readableDate(iso: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00Z`) : undefined;
  return date && !Number.isNaN(date.getTime()) ? dateFormat().format(date) : iso;
}

/**
 * A country's name from its ISO 3166-1 alpha-2 code; an unknown code is shown as it is.
 * @example countryName('GB') // 'United Kingdom'
 */
export function countryName(code: string): string {
  try {
    return regionNames().of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A slug-like value (a subcategory or tag such as `government-rd`) as words: hyphens become spaces,
 * known abbreviations their usual spelling, and the first letter a capital.
 * @example slugWords('government-rd') // 'Government R&D'
 */
export function slugWords(value: string): string {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value)) return value;
  const words = value.split('-').map((w) => ABBREVIATIONS[w] ?? w);
  const first = words[0] ?? '';
  return [first.charAt(0).toUpperCase() + first.slice(1), ...words.slice(1)].join(' ');
}

/**
 * A deal card's line under the value: the short description without the value when it starts
 * with it word for word ("Up to $1,000 in AWS credits for self-funded startups" under the value
 * "Up to $1,000 in AWS credits" reads "For self-funded startups"), so a card never says it twice.
 * @example cardSummary('Free plan', 'Free plan for new teams.') // 'For new teams.'
 */
export function cardSummary(value: string | undefined, summary: string | undefined): string | undefined {
  if (!summary || !value || !summary.toLowerCase().startsWith(value.toLowerCase())) return summary;
  const rest = summary.slice(value.length).replace(/^[\s,;:.–—-]+/, '');
  // Nothing worth reading left (the description was the value plus a full stop).
  if (rest.length < 12) return undefined;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** One pill on a card: its words and its kind (the class that colours it). */
export interface Badge {
  text: string;
  kind: 'sponsored' | 'pick' | 'status' | 'plain';
}

/**
 * The pills of a deal card, in order: paid placement, editorial pick, a status other than live,
 * what applying takes. The server's cards and the instant-search script draw the same ones.
 * @example dealBadges({ featured: true, recommended: false, status: 'active', difficulty: 'easy' }) // [{ text: 'Sponsored', kind: 'sponsored' }, { text: 'Easy to apply', kind: 'plain' }]
 */
export function dealBadges(deal: { featured?: boolean; recommended?: boolean; status: string; difficulty?: string | undefined }): Badge[] {
  const badges: Badge[] = [];
  if (deal.featured) badges.push({ text: SPONSORED, kind: 'sponsored' });
  if (deal.recommended) badges.push({ text: EDITORS_PICK, kind: 'pick' });
  if (deal.status !== 'active') badges.push({ text: statusLabel(deal.status), kind: 'status' });
  if (deal.difficulty) badges.push({ text: difficultyLabel(deal.difficulty), kind: 'plain' });
  return badges;
}

/**
 * A startup's one-line facts in words: its category's name, its country's name and where it is
 * listed, from the catalog's category and source tables.
 * @example startupMeta(startup, categories) // 'AI products · United Kingdom · via Acquire.com'
 */
export function startupMeta(
  startup: { category: string; country?: string | undefined; source?: string | undefined },
  categories: { startups: readonly { slug: string; name: string }[]; sources: readonly { slug: string; name: string }[] },
): string {
  const category = categories.startups.find((c) => c.slug === startup.category)?.name ?? startup.category;
  const source = startup.source ? (categories.sources.find((s) => s.slug === startup.source)?.name ?? startup.source) : undefined;
  return [category, startup.country && countryName(startup.country), source && `via ${source}`].filter(Boolean).join(' · ');
}

/**
 * A whole-dollar amount or the editor's own wording of it.
 * @example money(120000, undefined) // '$120,000'
 */
export function money(amount: number | undefined, display: string | undefined): string | undefined {
  return display ?? (amount === undefined ? undefined : `$${amount.toLocaleString('en-US')}`);
}

/**
 * Whole US dollars as people read them.
 * @example usd(100000) // '$100,000'
 */
export function usd(amount: number): string {
  return `$${amount.toLocaleString('en-US')}`;
}

/**
 * Equity taken, in words.
 * @example equityLabel(0) // 'No equity'
 * @example equityLabel(7) // '7% equity'
 */
export function equityLabel(percent: number): string {
  return percent === 0 ? 'No equity' : `${percent}% equity`;
}

/**
 * Stages in words: a run of neighbouring stages as a range, others listed.
 * @example stagesLabel(['seed', 'series-a']) // 'Seed to Series A'
 * @example stagesLabel(['idea', 'seed']) // 'Idea, seed'
 * @example stagesLabel(['seed']) // 'Seed stage'
 */
export function stagesLabel(stages: readonly string[]): string {
  const known = Object.keys(STAGE_LABELS);
  const words = stages.map((s) => STAGE_LABELS[s as Stage] ?? s);
  const at = stages.map((s) => known.indexOf(s));
  const run = at.every((i, n) => i >= 0 && (n === 0 || i === (at[n - 1] as number) + 1));
  const rest = (word: string) => (/^Series/.test(word) ? word : word.toLowerCase());
  if (words.length === 1) return `${words[0]} stage`;
  if (run) return `${words[0]} to ${rest(words[words.length - 1] as string)}`;
  return words.map((w, n) => (n === 0 ? w : rest(w))).join(', ');
}

/**
 * Regions in words.
 * @example regionsLabel(['uk', 'us']) // 'United Kingdom, United States'
 */
export function regionsLabel(regions: readonly string[]): string {
  return regions.map((r) => REGION_LABELS[r as Region] ?? r).join(', ');
}

/**
 * A program card's line of facts founders compare: equity, stages, regions, next deadline
 * (undefined when the deal states none). The server's cards and the instant-search script share it.
 * @example programLine({ equityPercent: 0, stages: ['seed', 'series-a'], regions: ['eu'] }) // 'No equity · Seed to Series A · European Union'
 */
export function programLine(deal: Pick<Deal, 'equityPercent' | 'stages' | 'regions' | 'nextDeadline'>): string | undefined {
  const parts = [
    deal.equityPercent === undefined ? undefined : equityLabel(deal.equityPercent),
    deal.stages?.length ? stagesLabel(deal.stages) : undefined,
    deal.regions?.length ? regionsLabel(deal.regions) : undefined,
    deal.nextDeadline ? `Apply by ${readableDate(deal.nextDeadline)}` : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : undefined;
}

// --- internal ---

/** How the abbreviations found in subcategories and tags are written. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  ai: 'AI',
  api: 'API',
  apis: 'APIs',
  aws: 'AWS',
  b2b: 'B2B',
  crm: 'CRM',
  eu: 'EU',
  gpu: 'GPU',
  hr: 'HR',
  ide: 'IDE',
  ml: 'ML',
  rd: 'R&D',
  saas: 'SaaS',
  seo: 'SEO',
  sms: 'SMS',
  uk: 'UK',
  us: 'US',
  vc: 'VC',
};

let dates: Intl.DateTimeFormat | undefined;
let regions: Intl.DisplayNames | undefined;

function dateFormat(): Intl.DateTimeFormat {
  dates ??= new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return dates;
}

function regionNames(): Intl.DisplayNames {
  regions ??= new Intl.DisplayNames([LOCALE], { type: 'region', fallback: 'code' });
  return regions;
}
