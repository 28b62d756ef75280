/**
 * "Deals you may qualify for" on the member's dashboard (issue 18, item 4), ranked by the
 * catalog's own facts: a program's stages and regions (program.ts), a funding cap its
 * eligibility states in dollars ("Raised less than $5 million"), and what the startup builds
 * matched as the site's search matches it (synonyms and ranking rules included). A fact the
 * deal states and the profile contradicts rules the deal out; a fact it states and the profile
 * meets is a reason, said in words. A deal with no reason is not suggested (it is open to
 * everyone, and the catalog lists it). Pure.
 */
import type { Deal } from '../schemas/deal.ts';
import type { MemberProfile } from '../schemas/dashboard.ts';
import { regionsOverlap } from '../schemas/program.ts';
import type { Catalog } from './catalog.ts';
import { listDeals } from './deals-query.ts';
import { REGION_LABELS, STAGE_LABELS, usd } from './labels.ts';

/** A suggested deal and why. */
export interface Suggestion {
  deal: Deal;
  reasons: string[];
}

/** How many suggestions the dashboard shows. */
export const SUGGESTIONS = 12;

/** How many of the best search matches for `builds` count as a match (beyond, a word in passing). */
const BUILDS_MATCHES = 40;

/**
 * @param today `YYYY-MM-DD`: a deal whose expiry date is before it is over
 * @example mayQualify(catalog, { stage: 'seed', region: 'fr', builds: 'AI developer tools', alerts: false }, '2026-11-25')
 */
export function mayQualify(catalog: Catalog, profile: MemberProfile, today: string, count = SUGGESTIONS): Suggestion[] {
  const builds = profile.builds?.trim();
  // The search's order: its rank is how closely the deal matches what the startup builds.
  const buildsRank = new Map<Deal, number>();
  if (builds) listDeals(catalog, { search: builds, limit: BUILDS_MATCHES }).positions.forEach((position, rank) => buildsRank.set(catalog.deals[position] as Deal, rank));

  const scored: { deal: Deal; reasons: string[]; score: number; position: number }[] = [];
  catalog.deals.forEach((deal, position) => {
    if (deal.status === 'expired' || (deal.expiryDate !== undefined && deal.expiryDate < today)) return;
    const reasons: string[] = [];
    let score = 0;
    if (profile.stage && deal.stages) {
      if (!deal.stages.includes(profile.stage)) return;
      reasons.push(`For your stage (${STAGE_LABELS[profile.stage]})`);
      score += 2;
    }
    if (profile.region && deal.regions) {
      if (!deal.regions.some((region) => regionsOverlap(region, profile.region as NonNullable<MemberProfile['region']>))) return;
      reasons.push(deal.regions.includes('global') ? 'Open worldwide' : `Open in ${REGION_LABELS[profile.region]}`);
      score += deal.regions.includes('global') ? 1 : 2;
    }
    const cap = profile.fundingUsd === undefined ? undefined : fundingCapUsd(deal.eligibility ?? []);
    if (cap !== undefined && profile.fundingUsd !== undefined) {
      if (profile.fundingUsd >= cap) return;
      reasons.push(`For startups that raised less than ${usd(cap)}`);
      score += 1;
    }
    const rank = buildsRank.get(deal);
    if (rank !== undefined && builds) {
      reasons.push(`Matches “${builds}”`);
      // The best matches weigh like a stated fact; the fortieth a little.
      score += 3 * (1 - rank / BUILDS_MATCHES);
    }
    if (reasons.length > 0) scored.push({ deal, reasons, score, position });
  });
  // Ties: verified first, then the larger value, then the catalog's own order.
  scored.sort((a, b) => b.score - a.score || Number(b.deal.verified) - Number(a.deal.verified) || (b.deal.valueUsd ?? 0) - (a.deal.valueUsd ?? 0) || a.position - b.position);
  return scored.slice(0, count).map(({ deal, reasons }) => ({ deal, reasons }));
}

/**
 * The funding cap a deal's eligibility states in dollars: "Raised less than $5 million",
 * "under $500k in funding"; undefined when none does (a cap named without an amount, such as
 * "below the provider's threshold", cannot be compared).
 * @example fundingCapUsd(['Raised less than about $5 million']) // 5000000
 */
export function fundingCapUsd(rules: readonly string[]): number | undefined {
  for (const rule of rules) {
    if (!/raised|funding/i.test(rule)) continue;
    const match = /(?:less than|under|below|up to|at most)\s+(?:about\s+|around\s+|roughly\s+)?(?:US)?\$\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(billion|bn|million|mn|m|thousand|k)?\b/i.exec(rule);
    if (!match) continue;
    const amount = Number((match[1] as string).replaceAll(',', ''));
    const unit = (match[2] ?? '').toLowerCase();
    const scale = unit.startsWith('b') ? 1e9 : unit.startsWith('m') ? 1e6 : unit === 'k' || unit === 'thousand' ? 1e3 : 1;
    return Math.round(amount * scale);
  }
  return undefined;
}
