/**
 * The facts founders compare (issue 15) through the real HTTP server over the `facts` fixture
 * (tests/unit/deal-facts.test.ts has its table): `sort` and the program filters on
 * GET /api/v1/deals and their 400s, the new fields in deal and startup answers (additive: the
 * SPEC shapes still hold), and the same sort and filters on the MCP tool `search_deals`.
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectDealList, expectStartupList, type DealList } from '../helpers/api-schemas.ts';
import { connectMcp } from '../helpers/agents-support.ts';
import { getJson } from '../helpers/http.ts';
import { FIXTURES, useTestServer } from '../helpers/server.ts';

const server = useTestServer(join(FIXTURES, 'facts'));

async function list(query: string): Promise<DealList> {
  const { status, body } = await getJson(server.url, `/api/v1/deals?${query}`);
  expect(status, `${query}: ${JSON.stringify(body)}`).toBe(200);
  return expectDealList(body);
}
const slugs = async (query: string) => (await list(query)).deals.map((d) => d.slug);

describe('GET /api/v1/deals: sort', () => {
  test('value: highest estimated value first, unknown last; limit and stats as without sort', async () => {
    expect(await slugs('scope=all&sort=value')).toEqual([
      'seed-accelerator',
      'equity-free-accelerator',
      'mentor-program',
      'big-cloud',
      'small-cloud',
      'eu-grant',
      'crm-discount',
      'uk-grant',
      'french-grant',
    ]);
    const limited = await list('scope=all&sort=value&limit=2');
    expect(limited.count).toBe(2);
    expect(limited.stats).toEqual((await list('scope=all')).stats);
  });

  test('expiry and newest, and relevance as the default order; the API alias agrees', async () => {
    expect(await slugs('scope=all&sort=expiry&limit=4')).toEqual(['french-grant', 'small-cloud', 'seed-accelerator', 'big-cloud']);
    expect(await slugs('scope=all&sort=newest&limit=3')).toEqual(['eu-grant', 'crm-discount', 'small-cloud']);
    expect(await slugs('scope=all&sort=relevance')).toEqual(await slugs('scope=all'));
    const { body } = await getJson(server.url, '/api/deals?scope=all&sort=value&limit=1');
    expect((body as DealList).deals[0]?.slug).toBe('seed-accelerator');
  });

  test('with search: the matches are the same, reordered', async () => {
    const byValue = await list('scope=all&search=cloud+credits&sort=value');
    const byRelevance = await list('scope=all&search=cloud+credits');
    expect(byValue.deals.map((d) => d.slug).slice(0, 3)).toEqual(['equity-free-accelerator', 'big-cloud', 'small-cloud']);
    expect(byValue.stats).toEqual(byRelevance.stats);
    expect(byValue.deals.map((d) => d.slug).sort()).toEqual(byRelevance.deals.map((d) => d.slug).sort());
  });
});

describe('GET /api/v1/deals: program filters', () => {
  test('equity=none, stage and region, alone and together', async () => {
    expect(await slugs('scope=programs&equity=none')).toEqual(['eu-grant', 'uk-grant', 'equity-free-accelerator', 'french-grant']);
    expect(await slugs('scope=programs&stage=seed')).toEqual(['seed-accelerator', 'uk-grant', 'equity-free-accelerator']);
    expect(await slugs('scope=programs&region=fr')).toEqual(['eu-grant', 'equity-free-accelerator', 'french-grant']);
    const both = await list('scope=programs&equity=none&region=europe&sort=value');
    expect(both.deals.map((d) => d.slug)).toEqual(['equity-free-accelerator', 'eu-grant', 'uk-grant', 'french-grant']);
    expect(both.stats).toMatchObject({ total: 4, scope: 'programs', byCategory: { accelerators: 1, grants: 3 } });
    // The API's default scope is `deals`, which state no program facts.
    expect((await list('equity=none')).stats.total).toBe(0);
  });

  test('a program answers its facts; a deal answers its estimated value', async () => {
    const { body } = await getJson(server.url, '/api/v1/deals?slug=seed-accelerator');
    expect((body as { deal: unknown }).deal).toMatchObject({ valueUsd: 500000, equityPercent: 7, stages: ['idea', 'pre-seed', 'seed'], regions: ['us'], nextDeadline: '2027-02-15' });
    const crm = (await list('search=crm')).deals.find((d) => d.slug === 'crm-discount');
    expect(crm && 'valueUsd' in crm).toBe(false);
  });
});

describe('GET /api/v1/startups', () => {
  test('listings carry their summary and listing link when they have them', async () => {
    const { body } = await getJson(server.url, '/api/v1/startups');
    const startups = expectStartupList(body).startups;
    expect(startups.find((s) => s.slug === 'cronwatch')).toMatchObject({
      summary: 'Monitoring for scheduled jobs, with alerts when a run is late.',
      listingUrl: 'https://acquire.com/listings/cronwatch',
    });
    expect(startups.find((s) => s.slug === 'mockforge')).not.toHaveProperty('summary');
  });
});

describe('MCP search_deals', () => {
  let client: Client | undefined;
  beforeAll(async () => {
    ({ client } = await connectMcp(server.url));
  });
  afterAll(async () => {
    await client?.close();
  });

  test('takes the same sort and program filters as the API and answers the facts', async () => {
    const result = (await client?.callTool({ name: 'search_deals', arguments: { sort: 'value', equity: 'none', region: 'europe', limit: 2 } })) as unknown as {
      structuredContent: { total: number; deals: { slug: string; valueUsd?: number; regions?: string[] }[] };
    };
    expect(result.structuredContent.total).toBe(4);
    expect(result.structuredContent.deals.map((d) => d.slug)).toEqual(['equity-free-accelerator', 'eu-grant']);
    expect(result.structuredContent.deals[0]).toMatchObject({ valueUsd: 350000, equityPercent: 0, regions: ['global'] });
  });

  test('a bad sort is a tool error, not a protocol failure', async () => {
    const result = (await client?.callTool({ name: 'search_deals', arguments: { sort: 'price' } })) as unknown as { isError?: boolean };
    expect(result.isError).toBe(true);
  });
});
