/**
 * The MCP server at `/api/mcp` (SPEC "What the service does": tools `search_deals`,
 * `get_site_info`, `list_categories`; resources `llms.txt`, `llms-full.txt`, `sitemap.xml`;
 * STANDARDS 1: stateless Streamable HTTP, JSON responses, GET/DELETE 405, 406 without the right
 * Accept), driven by the official SDK's own `Client` over `StreamableHTTPClientTransport`
 * against the real server on the `valid` fixture. Every tool answer is checked against the
 * JSON API (the same catalog functions must give the same deals and counts).
 */
import { Ajv } from 'ajv';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { expectDealList, expectErrorBody, expectStartupList, type DealList } from '../helpers/api-schemas.ts';
import { getJson } from '../helpers/http.ts';
import { connectMcp, fetchText, fixtureCategories, fixtureSite, onServer, siteUrl, startAgentsServer, type AgentsServer } from '../helpers/agents-support.ts';

const site = fixtureSite();

let server: AgentsServer;
let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(async () => {
  server = await startAgentsServer();
  ({ client, transport } = await connectMcp(server.url));
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});
afterEach(() => {
  expect(server.errors.splice(0)).toEqual([]);
});

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface DealSummary {
  id: string;
  slug: string;
  title: string;
  provider: string;
  category: string;
  status: string;
  value?: string;
  shortDescription?: string;
  expiryDate?: string;
  featured: boolean;
  recommended: boolean;
  applicationUrl: string;
  pageUrl: string;
}

async function callTool(name: string, args: Record<string, unknown> = {}, on: Client = client): Promise<ToolResult> {
  return (await on.callTool({ name, arguments: args })) as ToolResult;
}

/** A successful tool result: no error flag, a text block, and structured content. */
function expectToolOk(result: ToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result).slice(0, 500)).toBe(false);
  expect(result.content.length).toBeGreaterThan(0);
  expect(result.content[0]?.type).toBe('text');
  expect((result.content[0]?.text ?? '').length).toBeGreaterThan(0);
  expect(result.structuredContent).toBeDefined();
  return result.structuredContent as Record<string, unknown>;
}

async function apiDeals(query: string): Promise<DealList> {
  const { status, body } = await getJson(server.url, `/api/v1/deals${query}`);
  expect(status, `${query}: ${JSON.stringify(body)}`).toBe(200);
  return expectDealList(body);
}

/** A raw JSON-RPC POST to /api/mcp with the headers a Streamable HTTP client sends. */
function rawMcp(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/api/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

const initialize = (protocolVersion: string, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});

describe('connection', () => {
  test('the SDK client connects and negotiates the latest protocol the SDK speaks', () => {
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()?.name).toBe(site.name);
    expect(client.getServerVersion()?.version).toMatch(/^\d+\.\d+\.\d+/);
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.resources).toBeDefined();
  });

  test('no capability it cannot honour: a stateless server sends no list-changed or resource-updated notifications', () => {
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools?.listChanged ?? false).toBe(false);
    expect(capabilities?.resources?.listChanged ?? false).toBe(false);
    expect(capabilities?.resources?.subscribe ?? false).toBe(false);
    expect(Object.keys(capabilities ?? {}).sort()).toEqual(['resources', 'tools']);
  });

  test('an older client version is answered in that version; an unknown newer one is answered with the latest', async () => {
    for (const [asked, expected] of [
      ['2025-03-26', '2025-03-26'],
      ['2025-06-18', '2025-06-18'],
      ['2099-01-01', LATEST_PROTOCOL_VERSION],
    ] as const) {
      const response = await rawMcp(initialize(asked));
      expect(response.status, asked).toBe(200);
      expect(response.headers.get('content-type'), asked).toMatch(/^application\/json/);
      // Stateless: no session is created.
      expect(response.headers.get('mcp-session-id'), asked).toBeNull();
      const answer = (await response.json()) as { id: number; result?: { protocolVersion: string; serverInfo: { name: string } } };
      expect(answer.id).toBe(1);
      expect(answer.result?.protocolVersion, asked).toBe(expected);
      expect(answer.result?.serverInfo.name).toBe(site.name);
    }
  });
});

describe('tools/list', () => {
  test('exactly search_deals, get_deal, search_startups, recent_changes, get_site_info and list_categories, each described, read-only, with an output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_deal', 'get_site_info', 'list_categories', 'recent_changes', 'search_deals', 'search_startups']);
    for (const tool of tools) {
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(30);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.annotations?.destructiveHint ?? false, tool.name).toBe(false);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
  });

  test('search_deals input schema: typed arguments with bounds, limit 1..50', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_deals');
    const props = (search?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
    expect(Object.keys(props).sort()).toEqual(['category', 'equity', 'featured', 'limit', 'query', 'recommended', 'region', 'scope', 'sort', 'stage', 'status']);
    expect(props.sort?.enum).toEqual(['relevance', 'value', 'expiry', 'newest']);
    expect(props.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(props.query?.type).toBe('string');
    expect(typeof props.query?.maxLength).toBe('number');
    expect(props.status?.enum).toEqual(['active', 'expired', 'coming-soon', 'limited', 'all']);
    expect(props.scope?.enum).toEqual(['deals', 'programs', 'all']);
    expect(props.featured?.type).toBe('boolean');
    expect(props.recommended?.type).toBe('boolean');
    for (const [name, prop] of Object.entries(props)) expect(typeof prop.description, name).toBe('string');
    expect(search?.inputSchema.required ?? []).toEqual([]);

    // The published schema itself enforces what it says (draft-07, as the SDK emits it).
    const validate = new Ajv({ strict: false }).compile(search?.inputSchema as object);
    expect(validate({ limit: 50 })).toBe(true);
    expect(validate({ limit: 1, query: 'aws', status: 'all', scope: 'programs', featured: true })).toBe(true);
    expect(validate({ limit: 0 })).toBe(false);
    expect(validate({ limit: 51 })).toBe(false);
    expect(validate({ limit: 2.5 })).toBe(false);
    expect(validate({ status: 'nope' })).toBe(false);
    expect(validate({ query: 42 })).toBe(false);
  });

  test('get_site_info and list_categories take no arguments', async () => {
    const { tools } = await client.listTools();
    for (const name of ['get_site_info', 'list_categories']) {
      const tool = tools.find((t) => t.name === name);
      expect(Object.keys(tool?.inputSchema.properties ?? {}), name).toEqual([]);
    }
  });
});

describe('search_deals answers what GET /api/v1/deals answers for the same filters and limit', () => {
  // DESIGN "search scope outside the API": the tool's default scope is `all`, the API's `deals`,
  // so a call without `scope` answers what the API answers with `scope=all`.
  const cases: { args: Record<string, unknown>; query: string }[] = [
    { args: {}, query: '?scope=all&limit=10' },
    { args: { query: 'credits', limit: 2 }, query: '?search=credits&scope=all&limit=2' },
    { args: { query: 'startup', limit: 50 }, query: '?search=startup&scope=all&limit=50' },
    { args: { category: 'cloud-credits', status: 'all', limit: 50 }, query: '?category=cloud-credits&status=all&limit=50' },
    { args: { scope: 'programs', limit: 5 }, query: '?scope=programs&limit=5' },
    { args: { scope: 'deals', limit: 50 }, query: '?limit=50' },
    { args: { scope: 'all', featured: true, limit: 50 }, query: '?scope=all&featured=true&limit=50' },
    { args: { recommended: true, status: 'active', limit: 1 }, query: '?recommended=true&status=active&scope=all&limit=1' },
    { args: { status: 'expired', limit: 50 }, query: '?status=expired&scope=all&limit=50' },
  ];

  test.each(cases)('$args ↔ $query', async ({ args, query }) => {
    const structured = expectToolOk(await callTool('search_deals', args));
    expect(Object.keys(structured).sort()).toEqual(['count', 'deals', 'total']);
    const api = await apiDeals(query);
    const deals = structured.deals as DealSummary[];
    expect(structured.count).toBe(deals.length);
    expect(structured.total).toBe(api.stats.total);
    expect(deals.map((d) => d.slug)).toEqual(api.deals.map((d) => d.slug));
    for (const [i, summary] of deals.entries()) {
      const deal = api.deals[i];
      expect(summary).toEqual({
        id: deal?.id,
        slug: deal?.slug,
        title: deal?.title,
        provider: deal?.provider,
        category: deal?.category,
        status: deal?.status,
        ...(deal?.value ? { value: deal.value } : {}),
        ...(deal?.shortDescription ? { shortDescription: deal.shortDescription } : {}),
        ...(deal?.expiryDate ? { expiryDate: deal.expiryDate } : {}),
        featured: deal?.featured,
        recommended: deal?.recommended,
        applicationUrl: deal?.applicationUrl,
        pageUrl: siteUrl(site, `/deals/${deal?.slug}/`),
      });
    }
  });

  test('the cases are not vacuous: several return deals, one is cut by its limit', async () => {
    const some = expectToolOk(await callTool('search_deals', { query: 'credits', limit: 2 }));
    expect((some.deals as unknown[]).length).toBe(2);
    expect(some.total as number).toBeGreaterThan(2);
    const all = expectToolOk(await callTool('search_deals', { scope: 'all', status: 'all', limit: 50 }));
    expect(all.total).toBe(10);
  });

  test('without scope it searches programs too: a query for a program finds it, as the API does only with scope=all', async () => {
    const programs = await apiDeals('?scope=programs&limit=50');
    const program = programs.deals[0];
    if (!program) throw new Error('the fixture has a live program');
    const structured = expectToolOk(await callTool('search_deals', { query: program.title, limit: 50 }));
    expect((structured.deals as DealSummary[]).map((d) => d.slug)).toContain(program.slug);
    const apiDefault = await apiDeals(`?search=${encodeURIComponent(program.title)}&limit=50`);
    expect(apiDefault.deals.map((d) => d.slug)).not.toContain(program.slug);
  });

  test('an empty result says what was searched and offers categories to try (matching ones: tests/unit/empty-result.test.ts)', async () => {
    const result = await callTool('search_deals', { query: 'zzqx qqzv' });
    const structured = expectToolOk(result);
    expect(structured.total).toBe(0);
    expect(result.content[0]?.text).toMatchInlineSnapshot(
      `"No deals matched “zzqx qqzv” in deals and programs; try other or fewer words, or a category: \`cloud-credits\` (Cloud credits), \`saas-discounts\` (SaaS discounts), \`accelerators\` (Accelerators)."`,
    );
    const scoped = await callTool('search_deals', { query: 'zzqx', scope: 'programs' });
    expect(scoped.content[0]?.text).toMatchInlineSnapshot(
      `"No deals matched “zzqx” in programs only; try searching deals and programs together, or other or fewer words, or a category: \`accelerators\` (Accelerators)."`,
    );
  });

  test('the description says how matching works', async () => {
    const { tools } = await client.listTools();
    const description = tools.find((t) => t.name === 'search_deals')?.description ?? '';
    for (const phrase of ['deals and programs together', 'typos are tolerated', 'synonyms', 'preferred but not required', 'ranked by relevance']) expect(description).toContain(phrase);
  });

  test('the text block names every returned deal', async () => {
    const result = await callTool('search_deals', { scope: 'all', limit: 50 });
    const structured = expectToolOk(result);
    const text = result.content[0]?.text ?? '';
    for (const deal of structured.deals as DealSummary[]) expect(text).toContain(deal.title);
  });
});

describe('get_deal', () => {
  test('by slug or id: the deal as GET /api/v1/deals?slug= answers it, description included, and its page', async () => {
    const { deal } = (await getJson(server.url, '/api/v1/deals?slug=aws-activate')).body as { deal: { id: string; description?: string } };
    expect(deal.description?.length ?? 0).toBeGreaterThan(0);
    for (const args of [{ slug: 'aws-activate' }, { id: deal.id }, { slug: 'aws-activate', id: deal.id }]) {
      const result = await callTool('get_deal', args);
      expect(result.isError ?? false, JSON.stringify(args)).toBe(false);
      expect(result.structuredContent).toEqual({ deal, pageUrl: siteUrl(site, '/deals/aws-activate/') });
      expect(result.content[0]?.text).toContain(siteUrl(site, '/deals/aws-activate/'));
    }
  });

  test('not found, or nothing named: a tool error that says what to do, and the client keeps working', async () => {
    const missing = await callTool('get_deal', { slug: 'no-such-deal' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toMatch(/No deal matches slug "no-such-deal".*search_deals/);
    const mismatched = await callTool('get_deal', { slug: 'aws-activate', id: 'no-such-id' });
    expect(mismatched.isError).toBe(true);
    const none = await callTool('get_deal', {});
    expect(none.isError).toBe(true);
    expect(none.content[0]?.text).toMatch(/slug.*id/);
    expect((await callTool('get_deal', { slug: 'aws-activate' })).isError ?? false).toBe(false);
  });
});

describe('search_startups answers what GET /api/v1/startups answers', () => {
  test.each([
    [{}, ''],
    [{ category: 'saas', minRevenue: 100000 }, 'category=saas&minRevenue=100000'],
    [{ country: 'us', forSale: true }, 'country=us&forSale=true'],
    [{ search: 'saas', limit: 2 }, 'search=saas'],
    [{ featured: true }, 'featured=true'],
  ] as const)('%j', async (args, query) => {
    const list = expectStartupList((await getJson(server.url, `/api/v1/startups?${query}`)).body);
    const result = await callTool('search_startups', args);
    expect(result.isError ?? false).toBe(false);
    const limit = 'limit' in args ? args.limit : 10;
    const structured = result.structuredContent as { total: number; count: number; startups: { slug: string; pageUrl: string }[] };
    expect(structured.total).toBe(list.total);
    expect(structured.startups.map(({ pageUrl, ...startup }) => startup)).toEqual(list.startups.slice(0, limit));
    expect(structured.count).toBe(Math.min(limit, list.total));
    for (const s of structured.startups) expect(s.pageUrl).toBe(siteUrl(site, `/startups/${s.slug}/`));
  });

  test('a value the API refuses is a tool error naming the parameter', async () => {
    const result = await callTool('search_startups', { country: 'USA' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/country/);
  });
});

describe('recent_changes answers what GET /api/v1/changes answers', () => {
  /** The API's answer without its `success`, as the tool's structured content has it. */
  async function apiChanges(query: string): Promise<Record<string, unknown>> {
    const { status, body } = await getJson(server.url, `/api/v1/changes?${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const { success: _success, ...rest } = body as Record<string, unknown>;
    return rest;
  }

  test.each([
    [{}, 'limit=20'],
    [{ kind: 'startup', limit: 2 }, 'kind=startup&limit=2'],
    [{ since: '2000-01-01', kind: 'deal', limit: 50 }, 'since=2000-01-01&kind=deal&limit=50'],
  ] as const)('%j', async (args, query) => {
    const structured = expectToolOk(await callTool('recent_changes', args));
    expect(structured).toEqual(await apiChanges(query));
    expect((structured.changes as unknown[]).length).toBeGreaterThan(0);
  });

  test('paging with `next`, `since` the head (nothing new), and the text naming each change and the commit', async () => {
    const first = expectToolOk(await callTool('recent_changes', { limit: 3 }));
    expect(first.next).toEqual(expect.any(String));
    const second = await callTool('recent_changes', { limit: 3, cursor: first.next });
    expect(second.structuredContent).toEqual(await apiChanges(`limit=3&cursor=${String(first.next)}`));
    const result = await callTool('recent_changes', { limit: 3 });
    const text = result.content[0]?.text ?? '';
    for (const change of first.changes as { title: string; url: string }[]) expect(text).toContain(change.url);
    expect(text).toContain(String(first.head));
    const none = await callTool('recent_changes', { since: String(first.head) });
    expect(none.structuredContent).toMatchObject({ changes: [], complete: true });
    expect(none.content[0]?.text).toMatch(/^No changes match\./);
  });

  test('input schema: since, kind, limit 1..50, cursor; a value the API refuses is a tool error naming it', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'recent_changes');
    expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual(['cursor', 'kind', 'limit', 'since']);
    const validate = new Ajv({ strict: false }).compile(tool?.inputSchema as object);
    expect(validate({ since: '2026-11-20', kind: 'deal', limit: 50 })).toBe(true);
    expect(validate({ limit: 51 })).toBe(false);
    expect(validate({ kind: 'program' })).toBe(false);
    for (const since of ['last week', 'fffffff']) {
      const refused = await callTool('recent_changes', { since });
      expect(refused.isError, since).toBe(true);
      expect(refused.content[0]?.text, since).toMatch(/since/);
    }
  });
});

describe('one call for the issue 20 target', () => {
  test('search_deals "cloud credits for a pre-seed startup": a cloud-credits deal first', async () => {
    const result = await callTool('search_deals', { query: 'cloud credits for a pre-seed startup' });
    const deals = (result.structuredContent as { deals: DealSummary[] }).deals;
    expect(deals[0]?.category).toBe('cloud-credits');
  });
});

describe('list_categories', () => {
  test('every category of the catalog, with live-deal counts equal to the API stats.byCategory', async () => {
    const structured = expectToolOk(await callTool('list_categories'));
    const categories = structured.categories as { slug: string; name: string; scope: string; description?: string; dealCount: number }[];
    expect(categories.map(({ slug, name, scope }) => ({ slug, name, scope }))).toEqual(fixtureCategories());
    // Status omitted = every status except expired (DESIGN), scope=all = every category.
    const live = await apiDeals('?scope=all');
    for (const c of categories) expect(c.dealCount, c.slug).toBe(live.stats.byCategory[c.slug] ?? 0);
    expect(categories.reduce((n, c) => n + c.dealCount, 0)).toBe(live.stats.total);
    expect(Object.keys(live.stats.byCategory).every((slug) => categories.some((c) => c.slug === slug))).toBe(true);
  });
});

describe('get_site_info', () => {
  test('name, description and the absolute URLs of every agent surface', async () => {
    const info = expectToolOk(await callTool('get_site_info'));
    expect(info.name).toBe(site.name);
    expect(info.description).toBe(site.description);
    expect(info.url).toBe(siteUrl(site, '/'));
    expect(info.api).toEqual({
      baseUrl: siteUrl(site, '/api/v1'),
      openapi: siteUrl(site, '/openapi.json'),
      mcp: siteUrl(site, '/api/mcp'),
      llmsTxt: siteUrl(site, '/llms.txt'),
      llmsFullTxt: siteUrl(site, '/llms-full.txt'),
      sitemap: siteUrl(site, '/sitemap.xml'),
      apiCatalog: siteUrl(site, '/.well-known/api-catalog'),
      agentCard: siteUrl(site, '/.well-known/agent-card.json'),
    });
  });

  test('every document URL it gives answers 200 on the server', async () => {
    const info = expectToolOk(await callTool('get_site_info'));
    const api = info.api as Record<string, string>;
    for (const key of ['openapi', 'llmsTxt', 'llmsFullTxt', 'sitemap', 'apiCatalog', 'agentCard']) {
      const { status } = await fetchText(onServer(server, api[key] as string));
      expect(status, key).toBe(200);
    }
    expect((await fetchText(onServer(server, `${api.baseUrl}/deals?limit=1`))).status).toBe(200);
  });

  test('counts agree with the API: deals by scope and status, startups, startups for sale', async () => {
    const info = expectToolOk(await callTool('get_site_info'));
    const counts = info.counts as { byScope: Record<string, number>; byStatus: Record<string, number>; startups: number; startupsForSale: number };
    const dealsScope = await apiDeals('?scope=deals&status=all');
    const programsScope = await apiDeals('?scope=programs&status=all');
    expect(counts.byScope).toEqual({ deals: dealsScope.stats.total, programs: programsScope.stats.total });
    const every = await apiDeals('?scope=all&status=all');
    const byStatus: Record<string, number> = { active: 0, expired: 0, 'coming-soon': 0, limited: 0 };
    for (const deal of every.deals) byStatus[deal.status] = (byStatus[deal.status] ?? 0) + 1;
    expect(counts.byStatus).toEqual(byStatus);
    const startups = await getJson(server.url, '/api/v1/startups');
    expect(counts.startups).toBe(expectStartupList(startups.body).total);
    const forSale = await getJson(server.url, '/api/v1/startups?forSale=true');
    expect(counts.startupsForSale).toBe(expectStartupList(forSale.body).total);
    expect(counts.startupsForSale).toBeLessThan(counts.startups);
  });
});

describe('bad arguments are tool errors (isError with a message), and the connection keeps working', () => {
  const cases: { name: string; args: Record<string, unknown>; mentions: string }[] = [
    { name: 'limit 500', args: { limit: 500 }, mentions: 'limit' },
    { name: 'limit 0', args: { limit: 0 }, mentions: 'limit' },
    { name: 'limit not an integer', args: { limit: 2.5 }, mentions: 'limit' },
    { name: "status 'nope'", args: { status: 'nope' }, mentions: 'status' },
    { name: 'scope unknown', args: { scope: 'everything' }, mentions: 'scope' },
    { name: 'query not a string', args: { query: 42 }, mentions: 'query' },
    { name: 'query an object', args: { query: { $ne: null } }, mentions: 'query' },
    { name: 'featured a string', args: { featured: 'yes' }, mentions: 'featured' },
  ];

  test.each(cases)('search_deals with $name', async ({ args, mentions }) => {
    const result = await callTool('search_deals', args);
    expect(result.isError, JSON.stringify(result)).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]?.type).toBe('text');
    expect(result.content[0]?.text ?? '').toContain(mentions);
    // Same client, same transport: still answers.
    const after = expectToolOk(await callTool('search_deals', { limit: 1 }));
    expect(after.count).toBe(1);
  });

  test('an unknown tool is an error too, and the client still works', async () => {
    const failed = await callTool('delete_everything').then(
      (result) => result.isError === true,
      () => true,
    );
    expect(failed).toBe(true);
    expectToolOk(await callTool('list_categories'));
  });
});

describe('resources', () => {
  const expected = [
    { name: 'llms.txt', path: '/llms.txt', mimeType: 'text/markdown' },
    { name: 'llms-full.txt', path: '/llms-full.txt', mimeType: 'text/markdown' },
    { name: 'sitemap.xml', path: '/sitemap.xml', mimeType: 'application/xml' },
  ];

  test('listResources gives llms.txt, llms-full.txt and sitemap.xml with their media types', async () => {
    const { resources } = await client.listResources();
    expect(resources.map(({ name, uri, mimeType }) => ({ name, uri, mimeType })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      expected.map(({ name, path, mimeType }) => ({ name, uri: siteUrl(site, path), mimeType })).sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  test.each(expected)('readResource $name is the same text as GET $path', async ({ path, mimeType }) => {
    const { contents } = await client.readResource({ uri: siteUrl(site, path) });
    expect(contents).toHaveLength(1);
    const content = contents[0] as { uri: string; mimeType?: string; text?: string };
    expect(content.uri).toBe(siteUrl(site, path));
    expect(content.mimeType).toBe(mimeType);
    const http = await fetchText(`${server.url}${path}`);
    expect(http.status).toBe(200);
    expect(content.text).toBe(http.text);
    expect((content.text ?? '').length).toBeGreaterThan(100);
  });

  test('reading an unknown resource fails cleanly and the client still works', async () => {
    await expect(client.readResource({ uri: siteUrl(site, '/secrets.txt') })).rejects.toThrow();
    expectToolOk(await callTool('get_site_info'));
  });
});

describe('raw HTTP on /api/mcp', () => {
  test('GET answers 405 with Allow naming POST (no endless SSE stream)', async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5000);
    const response = await fetch(`${server.url}/api/mcp`, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
    clearTimeout(timer);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(expectErrorBody(await response.json()).code).toBe('method_not_allowed');
  });

  test('DELETE answers 405 with Allow naming POST', async () => {
    const response = await fetch(`${server.url}/api/mcp`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(expectErrorBody(await response.json()).code).toBe('method_not_allowed');
  });

  test('POST accepting only application/json is 406', async () => {
    const response = await rawMcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Accept: 'application/json' });
    expect(response.status).toBe(406);
    const body = (await response.json()) as { jsonrpc: string; error?: { code: number; message: string } };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error?.message).toMatch(/accept/i);
  });

  test('POST accepting only text/event-stream is 406', async () => {
    const response = await rawMcp(initialize(LATEST_PROTOCOL_VERSION), { Accept: 'text/event-stream' });
    expect(response.status).toBe(406);
    await response.body?.cancel();
  });

  test('POST without a JSON Content-Type is 415', async () => {
    const response = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize(LATEST_PROTOCOL_VERSION)),
    });
    expect(response.status).toBe(415);
    await response.body?.cancel();
  });

  test('a stateless server answers tools/call without any prior initialize on that connection', async () => {
    const response = await rawMcp({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_deals', arguments: { limit: 1 } } }, { 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number; result?: ToolResult };
    expect(body.id).toBe(7);
    expect(body.result?.isError ?? false).toBe(false);
    expect(body.result?.structuredContent?.count).toBe(1);
  });
});

describe('stateless: several clients at once', () => {
  test('two SDK clients connected in parallel get the same answers, interleaved', async () => {
    const [a, b] = await Promise.all([connectMcp(server.url, 'parallel-a'), connectMcp(server.url, 'parallel-b')]);
    try {
      expect(a.transport.sessionId).toBeUndefined();
      expect(b.transport.sessionId).toBeUndefined();
      const calls = (c: Client) => [
        callTool('search_deals', { query: 'credits', limit: 3 }, c),
        callTool('list_categories', {}, c),
        callTool('get_site_info', {}, c),
        callTool('search_deals', { scope: 'programs' }, c),
      ];
      const results = await Promise.all([...calls(a.client), ...calls(b.client), ...calls(client)]);
      const structured = results.map((r) => expectToolOk(r));
      for (let i = 0; i < 4; i++) {
        expect(structured[i + 4], `call ${i}`).toEqual(structured[i]);
        expect(structured[i + 8], `call ${i}`).toEqual(structured[i]);
      }
      const [resA, resB] = await Promise.all([a.client.listResources(), b.client.listResources()]);
      expect(resA.resources).toEqual(resB.resources);
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  });
});
