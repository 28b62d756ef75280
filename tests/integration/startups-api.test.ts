/**
 * GET /api/v1/startups on the real server over the `valid` fixture (SPEC GET /startups, DESIGN:
 * revenue bounds inclusive, filters combine with AND, `total` counts the matches). The
 * fixture's listings, in default order:
 *
 * | slug        | category  | revenue | country | source  | featured | forSale |
 * |-------------|-----------|---------|---------|---------|----------|---------|
 * | loglantern  | saas      | 500000  | US      | direct  | yes      | yes     |
 * | invoicenest | saas      | 184000  | US      | acquire | yes      | yes     |
 * | shopfront   | ecommerce | 184000  | US      | acquire |          | yes     |
 * | formbird    | saas      | (none)  | DE      | (none)  |          | yes     |
 * | petshop     | ecommerce | 90000   | GB      | direct  |          | no      |
 * | tinytask    | saas      | 0       | CA      | acquire |          | no      |
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectErrorBody, expectStartupList } from '../helpers/api-schemas.ts';
import { getJson } from '../helpers/http.ts';
import { FIXTURES, useTestServer } from '../helpers/server.ts';

const server = useTestServer(join(FIXTURES, 'valid'));

const ALL = ['loglantern', 'invoicenest', 'shopfront', 'formbird', 'petshop', 'tinytask'];

/** Slugs of a startup list (validated, `total` checked), in answer order. */
async function slugs(query: string): Promise<string[]> {
  const { status, body } = await getJson(server.url, `/api/v1/startups${query}`);
  expect(status, `${query}: ${JSON.stringify(body)}`).toBe(200);
  return expectStartupList(body).startups.map((s) => s.slug);
}

describe('list', () => {
  test('without parameters: every listing, featured first, then for sale, then newest', async () => {
    const { status, headers, body } = await getJson(server.url, '/api/v1/startups');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    const list = expectStartupList(body);
    expect(list.startups.map((s) => s.slug)).toEqual(ALL);
    expect(list.total).toBe(6);
  });

  test('each listing is the full record', async () => {
    const { body } = await getJson(server.url, '/api/v1/startups?category=saas&featured=true&source=acquire');
    expect(body).toEqual({
      success: true,
      startups: [
        {
          id: 's-inv00001',
          slug: 'invoicenest',
          name: 'InvoiceNest',
          category: 'saas',
          description: 'Invoicing software for freelancers.',
          revenue: 184000,
          revenueDisplay: '$184k ARR',
          askingPrice: 520000,
          website: 'https://invoicenest.example.com',
          country: 'US',
          source: 'acquire',
          featured: true,
          forSale: true,
          lastUpdated: '2026-09-14',
        },
      ],
      total: 1,
    });
  });

  test('unknown parameters are ignored and empty values count as absent', async () => {
    expect(await slugs('?foo=bar&limit=1')).toEqual(ALL);
    for (const name of ['category', 'minRevenue', 'maxRevenue', 'country', 'search', 'source', 'featured', 'forSale']) {
      expect(await slugs(`?${name}=`), name).toEqual(ALL);
    }
  });
});

describe('each filter', () => {
  test.each([
    ['category=saas', ['loglantern', 'invoicenest', 'formbird', 'tinytask']],
    ['category=SaaS', ['loglantern', 'invoicenest', 'formbird', 'tinytask']],
    ['category=ecommerce', ['shopfront', 'petshop']],
    ['category=unknown', []],
    ['country=US', ['loglantern', 'invoicenest', 'shopfront']],
    ['country=us', ['loglantern', 'invoicenest', 'shopfront']],
    ['country=Gb', ['petshop']],
    ['country=FR', []],
    ['source=acquire', ['invoicenest', 'shopfront', 'tinytask']],
    ['source=ACQUIRE', ['invoicenest', 'shopfront', 'tinytask']],
    ['source=direct', ['loglantern', 'petshop']],
    ['source=flippa', []],
    ['featured=true', ['loglantern', 'invoicenest']],
    ['forSale=true', ['loglantern', 'invoicenest', 'shopfront', 'formbird']],
    ['forSale=false', ['petshop', 'tinytask']],
  ])('%s', async (query, expected) => {
    expect(await slugs(`?${query}`)).toEqual(expected);
  });
});

describe('revenue bounds', () => {
  test.each([
    ['minRevenue=184000', ['loglantern', 'invoicenest', 'shopfront']],
    ['minRevenue=184001', ['loglantern']],
    ['maxRevenue=184000', ['invoicenest', 'shopfront', 'petshop', 'tinytask']],
    ['maxRevenue=183999', ['petshop', 'tinytask']],
    ['minRevenue=184000&maxRevenue=184000', ['invoicenest', 'shopfront']],
    ['minRevenue=0', ['loglantern', 'invoicenest', 'shopfront', 'petshop', 'tinytask']],
    ['maxRevenue=0', ['tinytask']],
    ['minRevenue=-1', ['loglantern', 'invoicenest', 'shopfront', 'petshop', 'tinytask']],
    ['minRevenue=500000', ['loglantern']],
    ['minRevenue=500001', []],
    ['minRevenue=200000&maxRevenue=100000', []],
    ['maxRevenue=999999999999999', ['loglantern', 'invoicenest', 'shopfront', 'petshop', 'tinytask']],
  ])('%s is inclusive and leaves out listings without revenue', async (query, expected) => {
    expect(await slugs(`?${query}`)).toEqual(expected);
  });
});

describe('revenue bounds beyond 15 digits', () => {
  test('a very large whole number is still a whole number, not a 400', async () => {
    // SPEC: minRevenue/maxRevenue are integers; this one is above every listing's revenue.
    expect(await slugs('?maxRevenue=10000000000000000')).toEqual(['loglantern', 'invoicenest', 'shopfront', 'petshop', 'tinytask']);
    expect(await slugs('?minRevenue=10000000000000000')).toEqual([]);
  });
});

describe('search', () => {
  test('matches name, description and category; the last word as a prefix', async () => {
    expect(await slugs('?search=invoicenest')).toEqual(['invoicenest']);
    expect(await slugs('?search=log')).toEqual(['loglantern']);
    expect(await slugs('?search=families')).toEqual(['tinytask']); // description, stemmed
    expect(await slugs('?search=fam')).toEqual(['tinytask']);
    expect(await slugs('?search=ecommerce')).toEqual(['petshop', 'shopfront']);
  });

  test('equal relevance is ordered by name', async () => {
    // "saas" appears only as the category of each: one score for all four.
    expect(await slugs('?search=saas')).toEqual(['formbird', 'invoicenest', 'loglantern', 'tinytask']);
  });

  test('a query without a searchable word returns an empty list', async () => {
    expect(await slugs('?search=the')).toEqual([]);
    expect(await slugs('?search=%3A%5E%7E')).toEqual([]);
  });

  test('lunr syntax and long strings are plain text', async () => {
    // Plain words `name log 1 saas x 2`: those matching nothing drop out (DESIGN: never empty while
    // some word matches), and the listing matching both `log` and `saas` ranks first.
    expect((await slugs(`?search=${encodeURIComponent('name:log* ~1 +saas -x^2')}`))[0]).toBe('loglantern');
    expect(await slugs(`?search=${encodeURIComponent('+invoicing')}`)).toEqual(['invoicenest']);
    expect(await slugs(`?search=${'z'.repeat(10 * 1024)}`)).toEqual([]);
  });
});

describe('filters combine with AND', () => {
  test.each([
    ['category=saas&country=US', ['loglantern', 'invoicenest']],
    ['category=saas&forSale=false', ['tinytask']],
    ['source=acquire&minRevenue=100000&forSale=true', ['invoicenest', 'shopfront']],
    ['featured=true&source=direct', ['loglantern']],
    ['country=US&maxRevenue=200000&category=ecommerce', ['shopfront']],
    ['search=saas&country=us', ['invoicenest', 'loglantern']],
    ['search=saas&minRevenue=1', ['invoicenest', 'loglantern']],
    ['search=saas&forSale=false', ['tinytask']],
    ['category=saas&country=US&source=acquire&featured=true&forSale=true&minRevenue=184000&maxRevenue=184000&search=invoicing', ['invoicenest']],
    ['category=ecommerce&featured=true', []],
  ])('%s', async (query, expected) => {
    expect(await slugs(`?${query}`)).toEqual(expected);
  });

  test('every pair of filters returns the intersection of each alone', async () => {
    const filters = [
      'category=saas',
      'category=ecommerce',
      'country=US',
      'source=acquire',
      'source=direct',
      'featured=true',
      'forSale=true',
      'forSale=false',
      'minRevenue=100000',
      'maxRevenue=184000',
    ];
    const alone = new Map<string, string[]>();
    for (const filter of filters) alone.set(filter, await slugs(`?${filter}`));
    for (const a of filters) {
      for (const b of filters) {
        if (a.split('=')[0] === b.split('=')[0]) continue;
        const both = (alone.get(a) ?? []).filter((slug) => (alone.get(b) ?? []).includes(slug));
        expect(await slugs(`?${a}&${b}`), `${a}&${b}`).toEqual(both);
      }
    }
  });
});

describe('invalid values', () => {
  test.each([
    ['minRevenue', 'abc', 'a whole number of US dollars'],
    ['minRevenue', '1e5', 'a whole number of US dollars'],
    ['maxRevenue', '1.5', 'a whole number of US dollars'],
    ['maxRevenue', 'ten', 'a whole number of US dollars'],
    ['forSale', 'yes', 'true, false'],
    ['forSale', 'TRUE', 'true, false'],
    ['featured', 'yes', 'true'],
    ['featured', 'false', 'true'],
  ])('%s=%s is 400 validation_error naming the parameter', async (name, value, allowed) => {
    const { status, headers, body } = await getJson(server.url, `/api/v1/startups?${name}=${value}`);
    expect(status).toBe(400);
    expect(headers.get('cache-control')).toBe('no-store');
    const error = expectErrorBody(body);
    expect(error.code).toBe('validation_error');
    expect(error.error).toContain(`\`${name}\``);
    expect(error.hint).toBe(`Allowed values for \`${name}\`: ${allowed}.`);
  });

  test('the 400 body for forSale=yes', async () => {
    const { body } = await getJson(server.url, '/api/v1/startups?forSale=yes');
    expect(expectErrorBody(body)).toMatchInlineSnapshot(
      { timestamp: expect.any(String) },
      `
      {
        "code": "validation_error",
        "error": "Invalid value for query parameter \`forSale\`: expected one of true, false.",
        "hint": "Allowed values for \`forSale\`: true, false.",
        "success": false,
        "timestamp": Any<String>,
      }
    `,
    );
  });
});

describe('methods', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is 405 method_not_allowed with Allow', async (method) => {
    const init: RequestInit = { method };
    if (method !== 'DELETE') {
      init.body = JSON.stringify({ name: 'x' });
      init.headers = { 'content-type': 'application/json' };
    }
    const { status, headers, body } = await getJson(server.url, '/api/v1/startups', init);
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(headers.get('cache-control')).toBe('no-store');
    const error = expectErrorBody(body);
    expect(error.code).toBe('method_not_allowed');
    expect(error.error).toBe(`Method ${method} is not supported here.`);
  });

  test('the unversioned alias answers 405 the same way', async () => {
    const { status, headers, body } = await getJson(server.url, '/api/startups', { method: 'POST' });
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(expectErrorBody(body).code).toBe('method_not_allowed');
  });
});
