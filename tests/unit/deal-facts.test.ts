/**
 * The facts founders compare (issue 15): `valueUsd`, the program facts and the startup
 * `summary`/`listingUrl` as content (what `npm run check` says about wrong values), and the
 * `sort` orders and program filters of GET /deals as pure functions of the catalog
 * (docs/api.md "Sorting" and "Program filters"). The `facts` fixture, in default order
 * (featured, recommended, lastUpdated newest first, title):
 *
 * | slug                    | scope    | status      | valueUsd  | closes                | lastUpdated | equity | stages                | regions |
 * |-------------------------|----------|-------------|-----------|-----------------------|-------------|--------|-----------------------|---------|
 * | big-cloud (featured)    | deals    | active      | 100,000   | expiry 2027-06-30     | 2026-05-01  |        |                       |         |
 * | seed-accelerator (pick) | programs | active      | 500,000   | deadline 2027-02-15   | 2026-08-15  | 7      | idea, pre-seed, seed  | us      |
 * | eu-grant                | programs | coming-soon |           |                       | 2026-11-14  | 0      |                       | eu      |
 * | crm-discount            | deals    | active      |           |                       | 2026-11-01  |        |                       |         |
 * | small-cloud             | deals    | active      | 1,000     | expiry 2027-01-31     | 2026-10-01  |        |                       |         |
 * | uk-grant                | programs | active      |           |                       | 2026-09-29  | 0      | seed, series-a, growth| uk      |
 * | equity-free-accelerator | programs | active      | 350,000   |                       | 2026-09-01  | 0      | seed, series-a        | global  |
 * | mentor-program          | programs | active      | 350,000   |                       | 2026-07-01  |        |                       |         |
 * | french-grant            | programs | active      |           | deadline 2026-12-15 (expiry 2027-03-31) | 2026-03-12 | 0 | pre-seed | fr |
 * | old-credits             | deals    | expired     | 500,000   | expiry 2026-01-31     | 2026-02-01  |        |                       |         |
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createCatalog, type Catalog } from '../../src/catalog/catalog.ts';
import { listDeals } from '../../src/catalog/deals-query.ts';
import { programLine, regionsLabel, stagesLabel } from '../../src/catalog/labels.ts';
import { listingAction } from '../../src/catalog/listing-action.ts';
import { closingDate } from '../../src/catalog/order.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { formatDiagnostic, hasErrors, sortDiagnostics } from '../../src/pipeline/diagnostics.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { regionsOverlap } from '../../src/schemas/program.ts';
import { DEAL_LIST_PARAMS, parseQuery, type DealListQuery } from '../../src/schemas/query.ts';
import { FIXTURES } from '../helpers/server.ts';

const TODAY = '2026-11-21';
let catalog: Catalog;

beforeAll(async () => {
  const built = runPipeline(await readContent(join(FIXTURES, 'facts')), { today: TODAY });
  if (!built.value) throw new Error(`facts fixture does not build: ${JSON.stringify(built.diagnostics)}`);
  expect(built.diagnostics).toEqual([]);
  catalog = createCatalog(built.value.data, built.value.postings);
});

/** Slugs answered for a query string, as GET /deals reads it. */
function slugs(query: string): string[] {
  return listDeals(catalog, parsed(query)).positions.map((p) => catalog.deals[p]?.slug ?? '');
}

function parsed(query: string): DealListQuery {
  const result = parseQuery(DEAL_LIST_PARAMS, new URLSearchParams(query));
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return result.value;
}

const DEFAULT = ['big-cloud', 'seed-accelerator', 'eu-grant', 'crm-discount', 'small-cloud', 'uk-grant', 'equity-free-accelerator', 'mentor-program', 'french-grant'];

describe('content: the new fields in `npm run check`', () => {
  test('wrong values are errors naming file, line, field and what is allowed; program facts on a deal and a passed deadline are warnings', async () => {
    const result = runPipeline(await readContent(join(FIXTURES, 'bad-facts')), { today: TODAY });
    expect(result.value).toBeUndefined();
    expect(hasErrors(result.diagnostics)).toBe(true);
    expect(sortDiagnostics(result.diagnostics).map(formatDiagnostic)).toMatchInlineSnapshot(`
      [
        "bad-facts/deals/bad-program.md:7 valueUsd: expected number, got \`$100,000\`",
        "bad-facts/deals/bad-program.md:10 equityPercent: expected a percentage from 0 to 100, got \`120\`",
        "bad-facts/deals/bad-program.md:11 stages.0: expected one of \`idea\` | \`pre-seed\` | \`seed\` | \`series-a\` | \`growth\`, got \`series-c\`; did you mean \`series-a\`?",
        "bad-facts/deals/bad-program.md:13 regions.0: expected one of \`global\` | \`africa\` | \`asia\` | \`europe\` | \`latin-america\` | \`middle-east\` | \`north-america\` | \`oceania\` | \`eu\` | \`uk\` | \`fr\` | \`de\` | \`us\` | \`ca\` | \`in\`, got \`mars\`",
        "bad-facts/deals/bad-program.md:15 nextDeadline: expected a date as YYYY-MM-DD, got \`March 2027\`",
        "bad-facts/deals/fractional-value.md:7 valueUsd: expected a whole number, got \`99.5\`",
        "bad-facts/deals/stages-on-deal.md:9 warning: stages: \`stages\`, \`nextDeadline\` describe programs, but category \`cloud-credits\` is in the \`deals\` scope; remove them or choose a program category",
        "bad-facts/deals/stages-on-deal.md:11 warning: nextDeadline: 2026-10-31 has passed; set the next deadline, remove it, or set status to \`expired\`",
        "bad-facts/startups/bad-listing.md:4 summary: expected string to have >=1 characters, got \`\`",
        "bad-facts/startups/bad-listing.md:7 listingUrl: expected an absolute http:// or https:// URL, got \`acquire.com/listings/bad\`",
      ]
    `);
  });

  test('the facts fixture builds, and its facts reach the catalog as written', () => {
    const deal = catalog.dealBySlug.get('seed-accelerator');
    expect(deal).toMatchObject({ valueUsd: 500000, equityPercent: 7, stages: ['idea', 'pre-seed', 'seed'], regions: ['us'], nextDeadline: '2027-02-15' });
    expect(catalog.startups.find((s) => s.slug === 'cronwatch')).toMatchObject({
      summary: 'Monitoring for scheduled jobs, with alerts when a run is late.',
      listingUrl: 'https://acquire.com/listings/cronwatch',
    });
  });
});

describe('sort', () => {
  test('without sort, and with sort=relevance, the default order is unchanged', () => {
    expect(slugs('scope=all')).toEqual(DEFAULT);
    expect(slugs('scope=all&sort=relevance')).toEqual(DEFAULT);
    expect(slugs('scope=all&search=cloud&sort=relevance')).toEqual(slugs('scope=all&search=cloud'));
  });

  test('value: highest valueUsd first, unknown last, ties in the default order', () => {
    expect(slugs('scope=all&sort=value')).toEqual([
      'seed-accelerator',
      // 350,000 each: the newer one first, as in the default order.
      'equity-free-accelerator',
      'mentor-program',
      'big-cloud',
      'small-cloud',
      'eu-grant',
      'crm-discount',
      'uk-grant',
      'french-grant',
    ]);
    // An expired deal of equal value comes after the recommended one (default order breaks the tie).
    expect(slugs('scope=all&status=all&sort=value').slice(0, 2)).toEqual(['seed-accelerator', 'old-credits']);
  });

  test('expiry: closing soonest first (the earlier of expiryDate and nextDeadline), none after, expired last', () => {
    expect(slugs('scope=all&sort=expiry')).toEqual([
      'french-grant',
      'small-cloud',
      'seed-accelerator',
      'big-cloud',
      'eu-grant',
      'crm-discount',
      'uk-grant',
      'equity-free-accelerator',
      'mentor-program',
    ]);
    expect(slugs('scope=all&status=all&sort=expiry').at(-1)).toBe('old-credits');
    expect(closingDate({ expiryDate: '2027-03-31', nextDeadline: '2026-12-15' })).toBe('2026-12-15');
    expect(closingDate({ expiryDate: '2027-03-31' })).toBe('2027-03-31');
    expect(closingDate({})).toBeUndefined();
  });

  test('newest: lastUpdated newest first, featured and recommended no longer first', () => {
    expect(slugs('scope=all&sort=newest')).toEqual([
      'eu-grant',
      'crm-discount',
      'small-cloud',
      'uk-grant',
      'equity-free-accelerator',
      'seed-accelerator',
      'mentor-program',
      'big-cloud',
      'french-grant',
    ]);
  });

  test('limit takes the first of the sorted list; stats are those of the same filters without sort', () => {
    const sorted = listDeals(catalog, parsed('scope=all&sort=value&limit=2'));
    expect(sorted.positions.map((p) => catalog.deals[p]?.slug)).toEqual(['seed-accelerator', 'equity-free-accelerator']);
    expect(sorted.stats).toEqual(listDeals(catalog, parsed('scope=all')).stats);
    expect(sorted.stats.total).toBe(9);
    for (const limit of [1, 3, 5, 100]) expect(slugs(`scope=all&sort=newest&limit=${limit}`)).toEqual(slugs('scope=all&sort=newest').slice(0, limit));
  });

  test('with search: deals matching more of the words first, then the sort, then relevance', () => {
    const bothWords = ['equity-free-accelerator', 'big-cloud', 'small-cloud'];
    const byValue = slugs('scope=all&search=cloud+credits&sort=value');
    expect(byValue.slice(0, 3)).toEqual(bothWords);
    // Matching only "credits", with a high value: after every deal matching both words.
    expect(byValue.indexOf('mentor-program')).toBeGreaterThan(2);
    // The same set and stats as the relevance order.
    expect([...byValue].sort()).toEqual([...slugs('scope=all&search=cloud+credits')].sort());
    expect(listDeals(catalog, parsed('scope=all&search=cloud+credits&sort=value')).stats).toEqual(listDeals(catalog, parsed('scope=all&search=cloud+credits')).stats);
    expect(slugs('scope=all&search=cloud+credits&sort=value&limit=2')).toEqual(bothWords.slice(0, 2));
  });
});

describe('program filters', () => {
  test('equity=none: programs that state they take no equity (unknown is not none)', () => {
    expect(slugs('scope=all&equity=none')).toEqual(['eu-grant', 'uk-grant', 'equity-free-accelerator', 'french-grant']);
    // Commercial deals state no program facts: with the API's default scope nothing matches.
    expect(slugs('equity=none')).toEqual([]);
    expect(slugs('scope=programs&equity=none&sort=value')).toEqual(['equity-free-accelerator', 'eu-grant', 'uk-grant', 'french-grant']);
  });

  test('stage: programs listing that stage', () => {
    expect(slugs('scope=programs&stage=seed')).toEqual(['seed-accelerator', 'uk-grant', 'equity-free-accelerator']);
    expect(slugs('scope=programs&stage=idea')).toEqual(['seed-accelerator']);
    expect(slugs('scope=programs&stage=growth')).toEqual(['uk-grant']);
  });

  test('region: programs whose region overlaps it (inside, containing or worldwide)', () => {
    expect(slugs('scope=programs&region=fr')).toEqual(['eu-grant', 'equity-free-accelerator', 'french-grant']);
    expect(slugs('scope=programs&region=europe')).toEqual(['eu-grant', 'uk-grant', 'equity-free-accelerator', 'french-grant']);
    expect(slugs('scope=programs&region=uk')).toEqual(['uk-grant', 'equity-free-accelerator']);
    expect(slugs('scope=programs&region=us')).toEqual(['seed-accelerator', 'equity-free-accelerator']);
    expect(regionsOverlap('de', 'europe')).toBe(true);
    expect(regionsOverlap('uk', 'eu')).toBe(false);
    expect(regionsOverlap('global', 'ca')).toBe(true);
  });

  test('filters combine with each other, with status, search, sort and limit (AND), and stats count the matches', () => {
    expect(slugs('scope=all&equity=none&region=europe&stage=seed')).toEqual(['uk-grant', 'equity-free-accelerator']);
    expect(slugs('scope=all&equity=none&status=coming-soon')).toEqual(['eu-grant']);
    expect(slugs('scope=all&search=grant&region=fr')).toEqual(['french-grant', 'eu-grant']);
    const list = listDeals(catalog, parsed('scope=all&equity=none&sort=expiry&limit=1'));
    expect(list.positions.map((p) => catalog.deals[p]?.slug)).toEqual(['french-grant']);
    expect(list.stats).toMatchObject({ total: 4, active: 3, byCategory: { accelerators: 1, grants: 3 } });
  });

  test('bad values are refused with the allowed values', () => {
    const problem = (query: string) => {
      const result = parseQuery(DEAL_LIST_PARAMS, new URLSearchParams(query));
      return result.ok ? undefined : result.problem;
    };
    expect(problem('sort=price')).toEqual({ name: 'sort', message: 'expected one of relevance, value, expiry, newest', allowed: 'relevance, value, expiry, newest' });
    expect(problem('equity=some')).toEqual({ name: 'equity', message: 'expected one of none', allowed: 'none' });
    expect(problem('stage=series-c')?.allowed).toBe('idea, pre-seed, seed, series-a, growth');
    expect(problem('region=mars')?.name).toBe('region');
    // Empty values are absent, as for every parameter (plain forms send "any" so).
    expect(problem('sort=&equity=&stage=&region=')).toBeUndefined();
  });
});

describe('in words', () => {
  test('a program card line: equity, stages, regions, deadline', () => {
    expect(programLine(catalog.dealBySlug.get('seed-accelerator') as never)).toBe('7% equity · Idea to seed · United States · Apply by 15 February 2027');
    expect(programLine(catalog.dealBySlug.get('equity-free-accelerator') as never)).toBe('No equity · Seed to Series A · Worldwide');
    expect(programLine(catalog.dealBySlug.get('big-cloud') as never)).toBeUndefined();
    expect(stagesLabel(['pre-seed'])).toBe('Pre-seed stage');
    expect(stagesLabel(['idea', 'seed'])).toBe('Idea, seed');
    expect(regionsLabel(['north-america', 'europe'])).toBe('North America, Europe');
  });

  test('a startup page calls to action: the listing, else the editors with the source named, else the businesses for sale', () => {
    const { categories, site } = catalog;
    const byName = (name: string) => catalog.startups.find((s) => s.name === name) as never;
    expect(listingAction(byName('CronWatch'), categories, site)).toEqual({ text: 'See the listing on Acquire.com', href: 'https://acquire.com/listings/cronwatch', outbound: true });
    expect(listingAction(byName('RankWell'), categories, site)).toEqual({
      text: 'Ask about this listing',
      href: 'mailto:editors@example.com?subject=Startup%20for%20sale%3A%20RankWell',
      outbound: false,
      note: 'Source: Direct from founder. There is no public listing link: ask the editors how to reach the seller.',
    });
    expect(listingAction(byName('MockForge'), categories, site)).toMatchObject({ href: '/startups/', note: 'This business is no longer for sale.' });
    expect(listingAction({ name: 'X', forSale: true }, categories, { contact: {} })).toBeUndefined();
    expect(listingAction({ name: 'X', forSale: true }, categories, { contact: { url: 'https://example.com/contact' } })).toMatchObject({ href: 'https://example.com/contact', outbound: false });
  });
});
