/**
 * GET /api/v1/deals on the real server over the `valid` fixture (SPEC GET /deals, DESIGN "API
 * decisions where SPEC is silent"). The fixture's deals, by default order:
 *
 * | slug               | category       | scope    | status      | featured | recommended | lastUpdated |
 * |--------------------|----------------|----------|-------------|----------|-------------|-------------|
 * | stripe-atlas       | saas-discounts | deals    | active      | yes      | yes         | 2026-05-01  |
 * | google-cloud       | cloud-credits  | deals    | limited     | yes      |             | 2026-09-01  |
 * | heroku-credits     | cloud-credits  | deals    | expired     | yes      |             | 2024-01-01  |
 * | aws-activate       | cloud-credits  | deals    | active      |          | yes         | 2026-10-02  |
 * | hubspot-startups   | saas-discounts | deals    | coming-soon |          | yes         | 2026-10-02  |
 * | techstars          | accelerators   | programs | active      |          | yes         | 2026-09-20  |
 * | y-combinator       | accelerators   | programs | active      |          |             | 2026-08-15  |
 * | cafe-zurich        | saas-discounts | deals    | active      |          |             | 2026-03-03  |
 * | notion-plus        | saas-discounts | deals    | expired     |          |             | 2025-06-01  |
 * | digitalocean-hatch | cloud-credits  | deals    | active      |          |             | (none)      |
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectDealList, expectErrorBody, DealSingleSchema, type DealList } from '../helpers/api-schemas.ts';
import { getJson } from '../helpers/http.ts';
import { FIXTURES, useTestServer } from '../helpers/server.ts';

const server = useTestServer(join(FIXTURES, 'valid'));

/** GET a deal list and return it validated. */
async function list(query: string): Promise<DealList> {
  const { status, body } = await getJson(server.url, `/api/v1/deals${query}`);
  expect(status, `${query}: ${JSON.stringify(body)}`).toBe(200);
  return expectDealList(body);
}

/** The slugs of a deal list, in answer order. */
async function slugs(query: string): Promise<string[]> {
  return (await list(query)).deals.map((d) => d.slug);
}

const AWS_ACTIVATE = {
  id: 'd-aws00001',
  slug: 'aws-activate',
  title: 'AWS Activate Founders',
  provider: 'Amazon Web Services',
  category: 'cloud-credits',
  description: 'AWS Activate gives startups credits for compute, storage and databases.',
  shortDescription: 'Up to $1,000 in AWS credits for self-funded startups.',
  value: 'Up to $1,000 in AWS credits',
  tags: ['aws', 'cloud', 'infrastructure'],
  status: 'active',
  applicationUrl: 'https://aws.amazon.com/startups/credits',
  featured: false,
  recommended: true,
  verified: true,
  difficulty: 'easy',
  lastUpdated: '2026-10-02',
};

describe('single lookup', () => {
  test('by slug returns { success, deal } with every stored field', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/deals?slug=aws-activate');
    expect(status).toBe(200);
    expect(DealSingleSchema.parse(body)).toEqual({ success: true, deal: AWS_ACTIVATE });
    expect(body).toEqual({ success: true, deal: AWS_ACTIVATE });
  });

  test('by id returns the same deal', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/deals?id=d-aws00001');
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, deal: AWS_ACTIVATE });
  });

  test('by slug and id naming the same deal returns it', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/deals?slug=aws-activate&id=d-aws00001');
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, deal: AWS_ACTIVATE });
  });

  test('by slug and id naming different deals is 404', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/deals?slug=aws-activate&id=d-gcp00002');
    expect(status).toBe(404);
    expect(expectErrorBody(body)).toMatchInlineSnapshot(
      { timestamp: expect.any(String) },
      `
      {
        "code": "not_found",
        "error": "No deal matches slug \`aws-activate\` and id \`d-gcp00002\`.",
        "hint": "Verify the id or slug: list deals with GET /api/v1/deals or search with GET /api/v1/deals?search=<words>.",
        "success": false,
        "timestamp": Any<String>,
      }
    `,
    );
  });

  test('a slug that exists with an id that does not is 404', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/deals?slug=aws-activate&id=d-missing1');
    expect(status).toBe(404);
    expect(expectErrorBody(body).code).toBe('not_found');
  });

  test('an unknown slug is 404 not_found with a hint to verify the id/slug', async () => {
    const { status, headers, body } = await getJson(server.url, '/api/v1/deals?slug=no-such-deal');
    expect(status).toBe(404);
    expect(headers.get('cache-control')).toBe('no-store');
    const error = expectErrorBody(body);
    expect(error.code).toBe('not_found');
    expect(error.error).toBe('No deal matches slug `no-such-deal`.');
    expect(error.hint).toMatch(/verify the id or slug/i);
  });

  test('an unknown id is 404 not_found with the same hint', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/deals?id=d-missing1');
    expect(status).toBe(404);
    const error = expectErrorBody(body);
    expect(error.error).toBe('No deal matches id `d-missing1`.');
    expect(error.hint).toMatch(/verify the id or slug/i);
  });

  test('an expired deal and a program are found by slug whatever the list filters would say', async () => {
    const expired = await getJson(server.url, '/api/v1/deals?slug=notion-plus');
    expect(expired.status).toBe(200);
    expect(DealSingleSchema.parse(expired.body).deal).toMatchObject({ id: 'd-not00003', status: 'expired' });
    const program = await getJson(server.url, '/api/v1/deals?id=d-yc000004');
    expect(program.status).toBe(200);
    expect(DealSingleSchema.parse(program.body).deal).toMatchObject({ slug: 'y-combinator', category: 'accelerators' });
  });

  test('an empty slug counts as absent: the other key decides, or the list is returned', async () => {
    const byId = await getJson(server.url, '/api/v1/deals?slug=&id=d-aws00001');
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ success: true, deal: AWS_ACTIVATE });
    expect((await list('?slug=&id=')).count).toBe(6);
  });
});

describe('list shape and default order', () => {
  test('without parameters: non-expired deals of scope `deals`, featured, recommended, newest, title', async () => {
    const body = await list('');
    expect(body.deals.map((d) => d.slug)).toEqual([
      'stripe-atlas', // featured + recommended
      'google-cloud', // featured
      'aws-activate', // recommended, 2026-10-02, title "AWS…" before "HubSpot…"
      'hubspot-startups', // recommended, 2026-10-02
      'cafe-zurich', // 2026-03-03
      'digitalocean-hatch', // no lastUpdated: last
    ]);
    expect(body.count).toBe(6);
    expect(body.stats).toEqual({
      total: 6,
      active: 4,
      expired: 0,
      featured: 2,
      recommended: 3,
      scope: 'deals',
      byCategory: { 'cloud-credits': 3, 'saas-discounts': 3 },
    });
  });

  test('each listed deal is the full record, as the single lookup returns it', async () => {
    const body = await list('');
    expect(body.deals.find((d) => d.slug === 'aws-activate')).toEqual(AWS_ACTIVATE);
  });

  test('status=all includes expired deals, in the same order rules', async () => {
    const body = await list('?status=all');
    expect(body.deals.map((d) => d.slug)).toEqual(['stripe-atlas', 'google-cloud', 'heroku-credits', 'aws-activate', 'hubspot-startups', 'cafe-zurich', 'notion-plus', 'digitalocean-hatch']);
    expect(body.stats).toEqual({
      total: 8,
      active: 4,
      expired: 2,
      featured: 3,
      recommended: 3,
      scope: 'deals',
      byCategory: { 'cloud-credits': 4, 'saas-discounts': 4 },
    });
  });

  test('unknown parameters are ignored', async () => {
    expect(await slugs('?foo=bar&limit=1&utm_source=x')).toEqual(['stripe-atlas']);
  });
});

describe('filters', () => {
  test.each([
    ['active', ['stripe-atlas', 'aws-activate', 'cafe-zurich', 'digitalocean-hatch']],
    ['expired', ['heroku-credits', 'notion-plus']],
    ['coming-soon', ['hubspot-startups']],
    ['limited', ['google-cloud']],
  ])('status=%s', async (status, expected) => {
    const body = await list(`?status=${status}`);
    expect(body.deals.map((d) => d.slug)).toEqual(expected);
    expect(body.deals.every((d) => d.status === status)).toBe(true);
    expect(body.stats.total).toBe(expected.length);
  });

  test('status=expired counts the expired deals in stats', async () => {
    expect((await list('?status=expired')).stats).toMatchObject({ total: 2, active: 0, expired: 2, featured: 1 });
  });

  test('featured=true lists featured deals, expired excluded unless status=all', async () => {
    expect(await slugs('?featured=true')).toEqual(['stripe-atlas', 'google-cloud']);
    expect(await slugs('?featured=true&status=all')).toEqual(['stripe-atlas', 'google-cloud', 'heroku-credits']);
  });

  test('recommended=true lists recommended deals of the scope', async () => {
    expect(await slugs('?recommended=true')).toEqual(['stripe-atlas', 'aws-activate', 'hubspot-startups']);
    expect(await slugs('?recommended=true&scope=all')).toEqual(['stripe-atlas', 'aws-activate', 'hubspot-startups', 'techstars']);
  });

  test('category filters deals of that category', async () => {
    const body = await list('?category=cloud-credits');
    expect(body.deals.map((d) => d.slug)).toEqual(['google-cloud', 'aws-activate', 'digitalocean-hatch']);
    expect(body.stats.byCategory).toEqual({ 'cloud-credits': 3 });
    expect(await slugs('?category=cloud-credits&status=all')).toEqual(['google-cloud', 'heroku-credits', 'aws-activate', 'digitalocean-hatch']);
  });

  test('an unknown category matches nothing (200, empty list)', async () => {
    const body = await list('?category=no-such-category');
    expect(body.deals).toEqual([]);
    expect(body.stats).toEqual({ total: 0, active: 0, expired: 0, featured: 0, recommended: 0, scope: 'deals', byCategory: {} });
  });

  test('filters combine with AND', async () => {
    expect(await slugs('?category=saas-discounts&featured=true&recommended=true')).toEqual(['stripe-atlas']);
    expect(await slugs('?category=cloud-credits&recommended=true&status=active')).toEqual(['aws-activate']);
    expect(await slugs('?category=cloud-credits&featured=true&status=active')).toEqual([]);
  });
});

describe('scope', () => {
  test('scope=programs lists accelerator/incubator/grant programs', async () => {
    const body = await list('?scope=programs');
    expect(body.deals.map((d) => d.slug)).toEqual(['techstars', 'y-combinator']);
    expect(body.stats).toEqual({ total: 2, active: 2, expired: 0, featured: 0, recommended: 1, scope: 'programs', byCategory: { accelerators: 2 } });
  });

  test('scope=all lists both partitions in one order', async () => {
    const body = await list('?scope=all');
    expect(body.deals.map((d) => d.slug)).toEqual(['stripe-atlas', 'google-cloud', 'aws-activate', 'hubspot-startups', 'techstars', 'y-combinator', 'cafe-zurich', 'digitalocean-hatch']);
    expect(body.stats).toEqual({
      total: 8,
      active: 6,
      expired: 0,
      featured: 2,
      recommended: 4,
      scope: 'all',
      byCategory: { accelerators: 2, 'cloud-credits': 3, 'saas-discounts': 3 },
    });
  });

  test('scope=deals is the default', async () => {
    expect(await list('?scope=deals')).toEqual(await list(''));
  });

  test("category without scope implies the category's scope", async () => {
    const body = await list('?category=accelerators');
    expect(body.deals.map((d) => d.slug)).toEqual(['techstars', 'y-combinator']);
    expect(body.stats.scope).toBe('programs');
  });

  test("an explicit scope wins over the category's scope", async () => {
    const body = await list('?category=accelerators&scope=deals');
    expect(body.deals).toEqual([]);
    expect(body.stats.scope).toBe('deals');
    expect(await slugs('?category=accelerators&scope=all')).toEqual(['techstars', 'y-combinator']);
  });
});

describe('limit', () => {
  test('limit cuts the list; count is what was returned, stats cover every match', async () => {
    const body = await list('?limit=2');
    expect(body.deals.map((d) => d.slug)).toEqual(['stripe-atlas', 'google-cloud']);
    expect(body.count).toBe(2);
    expect(body.stats.total).toBe(6);
    expect(body.stats.byCategory).toEqual({ 'cloud-credits': 3, 'saas-discounts': 3 });
  });

  test('limit=1 and limit equal to the number of matches', async () => {
    expect(await slugs('?limit=1')).toEqual(['stripe-atlas']);
    expect((await list('?limit=6')).count).toBe(6);
  });

  test.each(['5000', '5001', '99999', '999999999'])('limit=%s is capped, not an error', async (limit) => {
    const body = await list(`?limit=${limit}`);
    expect(body.count).toBe(6);
  });

  test('a limit above 5000 with ten or more digits is capped too', async () => {
    // DESIGN: "`limit` above 5000: silently capped at 5000".
    const { status, body } = await getJson(server.url, '/api/v1/deals?limit=10000000000');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(expectDealList(body).count).toBe(6);
  });

  test('an empty limit counts as absent', async () => {
    expect((await list('?limit=')).count).toBe(6);
  });

  test('limit applies after filters and search', async () => {
    const body = await list('?status=all&featured=true&limit=2');
    expect(body.deals.map((d) => d.slug)).toEqual(['stripe-atlas', 'google-cloud']);
    expect(body.stats.total).toBe(3);
    const searched = await list('?search=cr&limit=2');
    expect(searched.count).toBe(2);
    expect(searched.stats.total).toBe(4);
  });
});

describe('invalid values', () => {
  test.each([
    ['limit', '0', 'a whole number from 1'],
    ['limit', 'abc', 'a whole number from 1'],
    ['limit', '1.5', 'a whole number from 1'],
    ['limit', '-1', 'a whole number from 1'],
    ['limit', '1e3', 'a whole number from 1'],
    ['status', 'foo', 'active, expired, coming-soon, limited, all'],
    ['status', 'ALL', 'active, expired, coming-soon, limited, all'],
    ['featured', 'yes', 'true'],
    ['featured', 'false', 'true'],
    ['recommended', '1', 'true'],
    ['scope', 'x', 'deals, programs, all'],
    ['sort', 'price', 'relevance, value, expiry, newest'],
    ['sort', 'VALUE', 'relevance, value, expiry, newest'],
    ['equity', 'yes', 'none'],
    ['stage', 'series-c', 'idea, pre-seed, seed, series-a, growth'],
    ['region', 'mars', 'global, africa, asia, europe'],
  ])('%s=%s is 400 validation_error naming the parameter', async (name, value, allowed) => {
    const { status, headers, body } = await getJson(server.url, `/api/v1/deals?${name}=${value}`);
    expect(status).toBe(400);
    expect(headers.get('cache-control')).toBe('no-store');
    const error = expectErrorBody(body);
    expect(error.code).toBe('validation_error');
    expect(error.error).toContain(`\`${name}\``);
    expect(error.hint).toContain(allowed);
  });

  test('the 400 body for status=foo', async () => {
    const { body } = await getJson(server.url, '/api/v1/deals?status=foo');
    expect(expectErrorBody(body)).toMatchInlineSnapshot(
      { timestamp: expect.any(String) },
      `
      {
        "code": "validation_error",
        "error": "Invalid value for query parameter \`status\`: expected one of active, expired, coming-soon, limited, all.",
        "hint": "Allowed values for \`status\`: active, expired, coming-soon, limited, all.",
        "success": false,
        "timestamp": Any<String>,
      }
    `,
    );
  });

  test('the 400 body for limit=0', async () => {
    const { body } = await getJson(server.url, '/api/v1/deals?limit=0');
    expect(expectErrorBody(body)).toMatchInlineSnapshot(
      { timestamp: expect.any(String) },
      `
      {
        "code": "validation_error",
        "error": "Invalid value for query parameter \`limit\`: expected at least 1.",
        "hint": "Allowed values for \`limit\`: a whole number from 1 (values above 5000 are capped at 5000).",
        "success": false,
        "timestamp": Any<String>,
      }
    `,
    );
  });

  test('an invalid value is refused even alongside a slug lookup', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/deals?slug=aws-activate&status=foo');
    expect(status).toBe(400);
    expect(expectErrorBody(body).code).toBe('validation_error');
  });

  test.each(['status', 'featured', 'recommended', 'scope', 'category', 'search'])('an empty %s counts as absent', async (name) => {
    expect(await slugs(`?${name}=`)).toEqual(await slugs(''));
  });
});

describe('search', () => {
  test('a word matches across title, provider, tags and description, case-insensitively', async () => {
    expect(await slugs('?search=stripe')).toEqual(['stripe-atlas']);
    expect(await slugs('?search=STRIPE')).toEqual(['stripe-atlas']);
    expect(await slugs('?search=Amazon')).toEqual(['aws-activate']); // provider
    expect(await slugs('?search=crm')).toEqual(['hubspot-startups']); // tag
    expect(await slugs('?search=kubernetes')).toEqual(['digitalocean-hatch']); // description
  });

  test('stemming: `credits` and `credit` find the same deals, singular or plural in the text', async () => {
    // digitalocean-hatch says "credit" only; aws-activate says "credits" only.
    const plural = await slugs('?search=credits');
    expect(plural).toEqual(['google-cloud', 'aws-activate', 'digitalocean-hatch']);
    expect(await slugs('?search=credit')).toEqual(plural);
    // Not the last word, so no prefix matching: the stem alone still matches both forms (the
    // deal matching both words first; issue 13: then those matching fewer).
    expect((await slugs('?search=credits%20kubernetes'))[0]).toBe('digitalocean-hatch');
    expect((await slugs('?search=credit%20aws'))[0]).toBe('aws-activate');
  });

  test('the last word matches as a prefix (two characters or more)', async () => {
    expect(await slugs('?search=cred')).toEqual(['google-cloud', 'aws-activate', 'digitalocean-hatch']);
    expect(await slugs('?search=hubs')).toEqual(['hubspot-startups']);
    expect(await slugs('?search=stripe%20atl')).toEqual(['stripe-atlas']);
    // `cr` also starts `crm`.
    expect((await slugs('?search=cr')).sort()).toEqual(['aws-activate', 'digitalocean-hatch', 'google-cloud', 'hubspot-startups']);
  });

  test('only the last word is a prefix (a non-last word matching nothing is dropped); a one-character last word must match exactly', async () => {
    // DESIGN "search syntax": never empty while some word matches, so `atl` (no term) drops out.
    expect(await slugs('?search=atl%20stripe')).toEqual(['stripe-atlas']);
    expect(await slugs('?search=c')).toEqual([]);
  });

  test('deals matching every word come first, then those matching fewer (issue 13)', async () => {
    expect((await slugs('?search=cloud%20credits')).slice(0, 2)).toEqual(['google-cloud', 'aws-activate']);
    expect((await slugs('?search=aws%20credits'))[0]).toBe('aws-activate');
    expect((await slugs('?search=aws%20hubspot')).sort()).toEqual(['aws-activate', 'hubspot-startups']);
  });

  test('stop words are dropped; a query of stop words only returns an empty list', async () => {
    expect(await slugs('?search=the%20aws')).toEqual(['aws-activate']);
    expect(await slugs('?search=aws%20the')).toEqual(['aws-activate']);
    const body = await list('?search=the');
    expect(body.deals).toEqual([]);
    expect(body.count).toBe(0);
    expect(body.stats).toEqual({ total: 0, active: 0, expired: 0, featured: 0, recommended: 0, scope: 'deals', byCategory: {} });
  });

  test('results are ordered by relevance: a title match ranks first', async () => {
    // google-cloud has "cloud" in its title (boost 10), aws-activate in its tags (5),
    // digitalocean-hatch only in its category's name "Cloud credits" (4).
    expect(await slugs('?search=cloud')).toEqual(['google-cloud', 'aws-activate', 'digitalocean-hatch']);
  });

  test('equal relevance is ordered editorially: featured first, as without search (issue 13)', async () => {
    // Both have exactly the tags [hosting, servers] and no other "hosting"; heroku-credits is
    // featured and comes first without search, so it breaks the tie.
    expect(await slugs('?status=all&category=cloud-credits')).toEqual(['google-cloud', 'heroku-credits', 'aws-activate', 'digitalocean-hatch']);
    expect(await slugs('?search=hosting&status=all')).toEqual(['heroku-credits', 'digitalocean-hatch']);
  });

  test('search respects the status, scope and other filters, and stats follow the matches', async () => {
    expect(await slugs('?search=hosting')).toEqual(['digitalocean-hatch']);
    expect(await slugs('?search=credits&featured=true')).toEqual(['google-cloud']);
    expect(await slugs('?search=accelerator')).toEqual([]);
    expect(await slugs('?search=accelerator&scope=programs')).toEqual(['techstars', 'y-combinator']);
    const body = await list('?search=credits');
    expect(body.stats).toEqual({
      total: 3,
      active: 2,
      expired: 0,
      featured: 1,
      recommended: 1,
      scope: 'deals',
      byCategory: { 'cloud-credits': 3 },
    });
  });

  test('unicode words match, case-insensitively', async () => {
    expect(await slugs(`?search=${encodeURIComponent('zürich')}`)).toEqual(['cafe-zurich']);
    expect(await slugs(`?search=${encodeURIComponent('ZÜRICH')}`)).toEqual(['cafe-zurich']);
    expect(await slugs(`?search=${encodeURIComponent('Café')}`)).toEqual(['cafe-zurich']);
    expect(await slugs(`?search=${encodeURIComponent('tōkyō')}`)).toEqual(['cafe-zurich']);
  });

  test('a word written only in non-Latin letters matches (the tag 東京)', async () => {
    expect(await slugs(`?search=${encodeURIComponent('東京')}`)).toEqual(['cafe-zurich']);
  });

  test.each([
    ['aws:', ['aws-activate']],
    // Words that match nothing (`title`, `10`, `2`) are dropped (DESIGN: never empty while some word matches).
    ['title:aws', ['aws-activate']],
    ['foo^', []],
    // `10` is the last word, so a prefix (of stripe-atlas's "100"): the rarer word ranks first.
    ['cloud^10', ['stripe-atlas', 'google-cloud', 'aws-activate', 'digitalocean-hatch']],
    ['~2', []],
    ['aws~2', ['aws-activate']],
    ['+aws', ['aws-activate']],
    ['-aws', ['aws-activate']],
    ['+stripe -atlas', ['stripe-atlas']],
    ['aw*', ['aws-activate']],
    ['*', []],
    ['*:*', []],
    ['"aws"', ['aws-activate']],
    ['(aws)', ['aws-activate']],
    ['\\', []],
    ['%', []],
  ])('lunr syntax %j is plain text', async (query, expected) => {
    expect(await slugs(`?search=${encodeURIComponent(query)}`)).toEqual(expected);
  });

  test('a 10 KB search string is answered (200)', async () => {
    expect(await slugs(`?search=${'a'.repeat(10 * 1024)}`)).toEqual([]);
    expect(await slugs(`?search=${'aws+'.repeat(2560)}`)).toEqual(['aws-activate']);
    const mixed = Array.from({ length: 1000 }, (_, i) => `w${i}~^:*`).join('+');
    expect(mixed.length).toBeGreaterThan(7000);
    expect(await slugs(`?search=${mixed}`)).toEqual([]);
  });
});
