/**
 * The words people see for the catalog's machine values (issue 15): difficulty, status, dates,
 * countries and the startup facts. Content and API keep the machine values; every page and the
 * browser script word them from these tables, so a value is never shown raw in one place and
 * human in another. Pure (no I/O), so the server pages and the instant-search script share it.
 */
import type { Deal, DealStatus } from '../schemas/deal.ts';

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

// --- internal ---

/** How the abbreviations found in subcategories and tags are written. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  ai: 'AI', api: 'API', apis: 'APIs', aws: 'AWS', b2b: 'B2B', crm: 'CRM', eu: 'EU', gpu: 'GPU', hr: 'HR', ide: 'IDE',
  ml: 'ML', rd: 'R&D', saas: 'SaaS', seo: 'SEO', sms: 'SMS', uk: 'UK', us: 'US', vc: 'VC',
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
