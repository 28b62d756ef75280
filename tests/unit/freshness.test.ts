/**
 * Freshness (issue 20): how old a record's check is, and the admin's "Needs attention" queues
 * built from the catalog, today, the site's rules and a link report.
 */
import { describe, expect, test } from 'vitest';
import { needsAttention, type LinkFinding } from '../../src/catalog/attention.ts';
import { daysAgo, daysBetween, staleness } from '../../src/catalog/freshness.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import type { Startup } from '../../src/schemas/startup.ts';

const TODAY = '2026-11-24';
const RULES = { maxAgeDays: 180, expiringWithinDays: 14 };

function deal(slug: string, fields: Partial<Deal> = {}): Deal {
  return {
    id: `d-${slug}`,
    slug,
    title: `Deal ${slug}`,
    provider: 'Co',
    category: 'cloud',
    status: 'active',
    applicationUrl: `https://co.example/${slug}`,
    featured: false,
    recommended: false,
    verified: false,
    ...fields,
  };
}
function startup(slug: string, fields: Partial<Startup> = {}): Startup {
  return { id: `s-${slug}`, slug, name: `Startup ${slug}`, category: 'saas', featured: false, forSale: true, ...fields };
}

describe('freshness', () => {
  test('days between UTC days, across a month and a leap day', () => {
    expect(daysBetween('2026-11-01', '2026-11-24')).toBe(23);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-11-24', '2026-11-20')).toBe(-4);
  });

  test('words for an age', () => {
    expect([daysAgo(TODAY, TODAY), daysAgo('2026-11-23', TODAY), daysAgo('2026-11-14', TODAY), daysAgo('2026-11-26', TODAY)]).toEqual(['today', 'yesterday', '10 days ago', 'in 2 days']);
  });

  test('stale: checked more than the age ago (lastVerified first, else lastUpdated), or never dated; exactly the age is fresh', () => {
    expect(staleness({ lastVerified: '2026-05-28' }, TODAY, 180)).toBeUndefined();
    expect(staleness({ lastVerified: '2026-05-27' }, TODAY, 180)).toEqual({ checkedOn: '2026-05-27', days: 181 });
    expect(staleness({ lastVerified: '2026-11-01', lastUpdated: '2020-01-01' }, TODAY, 180)).toBeUndefined();
    expect(staleness({ lastUpdated: '2026-01-01' }, TODAY, 180)).toEqual({ checkedOn: '2026-01-01', days: 327 });
    expect(staleness({}, TODAY, 180)).toEqual({});
  });
});

describe('needs attention', () => {
  const deals = [
    deal('past-open', { expiryDate: '2026-11-01', status: 'active' }),
    deal('past-limited', { expiryDate: '2026-11-23', status: 'limited' }),
    deal('past-marked', { expiryDate: '2026-01-01', status: 'expired', verified: true }),
    deal('ends-today', { expiryDate: TODAY }),
    deal('ends-in-14', { expiryDate: '2026-12-08' }),
    deal('ends-in-15', { expiryDate: '2026-12-09' }),
    deal('stale-verified', { verified: true, lastVerified: '2026-03-01', sourceUrl: 'https://co.example/terms' }),
    deal('undated-verified', { verified: true }),
    deal('fresh-verified', { verified: true, lastVerified: '2026-11-01' }),
    deal('stale-unverified', { verified: false, lastUpdated: '2025-01-01' }),
  ];
  const startups = [
    startup('stale-for-sale', { lastVerified: '2026-01-01', listingUrl: 'https://market.example/1' }),
    startup('stale-sold', { forSale: false, lastUpdated: '2025-01-01' }),
    startup('fresh', { lastUpdated: '2026-11-01' }),
  ];

  test('expired: open deals past their date, oldest first; expiring: today up to the window, soonest first', () => {
    const queues = needsAttention({ deals, startups }, TODAY, RULES);
    expect(queues.expired.map((r) => [r.slug, r.days])).toEqual([
      ['past-open', 23],
      ['past-limited', 1],
    ]);
    expect(queues.expiring.map((r) => [r.slug, r.days])).toEqual([
      ['ends-today', 0],
      ['ends-in-14', 14],
    ]);
  });

  test('stale: verified open deals and listings for sale, never dated first, then the oldest check; each with where to check it', () => {
    const { stale } = needsAttention({ deals, startups }, TODAY, RULES);
    expect(stale.map((r) => [r.kind, r.slug, r.checkedOn, r.days, r.checkUrl])).toEqual([
      ['deal', 'undated-verified', undefined, undefined, 'https://co.example/undated-verified'],
      ['startup', 'stale-for-sale', '2026-01-01', 327, 'https://market.example/1'],
      ['deal', 'stale-verified', '2026-03-01', 268, 'https://co.example/terms'],
    ]);
  });

  test('links: each non-ok finding on each record that still holds that address', () => {
    const findings: LinkFinding[] = [
      { url: 'https://co.example/terms', verdict: 'gone', status: 404, detail: 'Not Found', uses: [{ kind: 'deal', slug: 'stale-verified', field: 'sourceUrl' }] },
      { url: 'https://co.example/fresh-verified', verdict: 'ok', detail: '', uses: [{ kind: 'deal', slug: 'fresh-verified', field: 'applicationUrl' }] },
      // Edited since the check, and a record deleted since: old news.
      { url: 'https://co.example/old-address', verdict: 'gone', detail: '', uses: [{ kind: 'deal', slug: 'past-open', field: 'applicationUrl' }] },
      { url: 'https://co.example/x', verdict: 'timeout', detail: '', uses: [{ kind: 'deal', slug: 'deleted', field: 'applicationUrl' }] },
      { url: 'https://market.example/1', verdict: 'moved', finalUrl: 'https://market.example/listing/1', detail: '301', uses: [{ kind: 'startup', slug: 'stale-for-sale', field: 'listingUrl' }] },
    ];
    const { links } = needsAttention({ deals, startups }, TODAY, RULES, findings);
    expect(links.map((r) => [r.kind, r.slug, r.link])).toEqual([
      ['deal', 'stale-verified', { field: 'sourceUrl', url: 'https://co.example/terms', verdict: 'gone', status: 404, detail: 'Not Found' }],
      ['startup', 'stale-for-sale', { field: 'listingUrl', url: 'https://market.example/1', verdict: 'moved', finalUrl: 'https://market.example/listing/1', detail: '301' }],
    ]);
  });
});
