/**
 * Discovery documents for agents and crawlers on the real server over the `valid` fixture:
 * the RFC 9727 API catalog (STANDARDS 3), the A2A 1.0 agent card (STANDARDS 2), the OAuth/OIDC
 * documents of SPEC "Authentication" 6 (STANDARDS 6: RFC 9728, RFC 8414, OIDC Discovery,
 * RFC 7517), llms.txt / llms-full.txt (STANDARDS 4), sitemap.xml and robots.txt. A pending
 * submission (DESIGN "Submissions are not content": never published) is sent first and must appear in
 * none of them, nor in the MCP search or the API.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expectDealList, expectStartupList, type DealList } from '../helpers/api-schemas.ts';
import { memberAreaNote } from '../../src/agents/member-area.ts';
import { callFrom } from '../helpers/writes-harness.ts';
import {
  connectMcp,
  fetchText,
  fixtureCategories,
  fixtureSite,
  linksWithRel,
  onServer,
  parseJson,
  parseLinks,
  randomWord,
  siteUrl,
  startAgentsServer,
  type AgentsServer,
} from '../helpers/agents-support.ts';

const site = fixtureSite();
const origin = new URL(site.baseUrl).origin;
const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

let server: AgentsServer;
let mcp: Client;
/** The company name of a submission accepted before any document is read. */
let pendingWord: string;
let pendingCompany: string;

beforeAll(async () => {
  server = await startAgentsServer();
  pendingWord = randomWord('zqpending');
  pendingCompany = `Pendingco ${pendingWord}`;
  const accepted = await callFrom('127.0.77.1', server.url, 'POST', '/api/v1/submit-deal', {
    origin: null,
    body: {
      company_name: pendingCompany,
      website_url: `https://${pendingWord}.example`,
      benefit_description: `Free ${pendingWord} credits for every startup that applies this year.`,
      category: 'cloud',
      deal_value: `$5,000 ${pendingWord}`,
      redemption_link: `https://${pendingWord}.example/redeem`,
      submitter_email: `founder@${pendingWord}.example`,
    },
  });
  expect(accepted.status, accepted.text).toBe(201);
  ({ client: mcp } = await connectMcp(server.url));
});
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
});
afterEach(() => {
  expect(server.errors.splice(0)).toEqual([]);
});

const get = (path: string, init: RequestInit = {}) => fetchText(`${server.url}${path}`, init);

async function allDeals(query = '?status=all&scope=all'): Promise<DealList> {
  const { status, text } = await get(`/api/v1/deals${query}`);
  expect(status).toBe(200);
  return expectDealList(parseJson(text));
}

// --- RFC 9727 API catalog ---

describe('/.well-known/api-catalog (RFC 9727)', () => {
  test('GET: the linkset media type with the RFC 9727 profile, and Link rel="api-catalog"', async () => {
    const { status, headers, text } = await get('/.well-known/api-catalog');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe(API_CATALOG_TYPE);
    const links = parseLinks(headers.get('link')).filter((l) => l.rel.includes('api-catalog'));
    expect(links).toHaveLength(1);
    expect(new URL(links[0]?.href ?? '', site.baseUrl).pathname).toBe('/.well-known/api-catalog');
    expect(text.length).toBeGreaterThan(0);
  });

  test('HEAD: same status, media type and Link, no body', async () => {
    const { status, headers, text } = await get('/.well-known/api-catalog', { method: 'HEAD' });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe(API_CATALOG_TYPE);
    expect(linksWithRel(headers.get('link'), 'api-catalog').map((h) => new URL(h, site.baseUrl).pathname)).toEqual(['/.well-known/api-catalog']);
    expect(text).toBe('');
  });

  test('the body is an RFC 9264 linkset: context objects with an anchor and arrays of {href, type} targets', async () => {
    const body = parseJson((await get('/.well-known/api-catalog')).text) as { linkset?: unknown };
    expect(Object.keys(body)).toEqual(['linkset']);
    expect(Array.isArray(body.linkset)).toBe(true);
    const contexts = body.linkset as Record<string, unknown>[];
    expect(contexts.length).toBeGreaterThan(0);
    for (const context of contexts) {
      expect(typeof context.anchor).toBe('string');
      expect(() => new URL(context.anchor as string)).not.toThrow();
      const relations = Object.keys(context).filter((k) => k !== 'anchor');
      expect(relations.length, String(context.anchor)).toBeGreaterThan(0);
      for (const rel of relations) {
        const targets = context[rel] as Record<string, unknown>[];
        expect(Array.isArray(targets), `${String(context.anchor)} ${rel}`).toBe(true);
        expect(targets.length).toBeGreaterThan(0);
        for (const target of targets) {
          expect(typeof target.href, `${rel} href`).toBe('string');
          expect(() => new URL(target.href as string), `${rel} href`).not.toThrow();
          expect(target.type, `${rel} ${String(target.href)} type`).toMatch(/^[\w.+-]+\/[\w.+-]+$/);
        }
      }
    }
  });

  test('the API context: anchor is the API base, service-desc is /openapi.json (fetchable, OpenAPI 3.1), status is the health endpoint', async () => {
    const body = parseJson((await get('/.well-known/api-catalog')).text) as { linkset: Record<string, { href: string; type: string }[] | string>[] };
    const api = body.linkset.find((c) => c.anchor === siteUrl(site, '/api/v1'));
    expect(api, JSON.stringify(body)).toBeDefined();
    const desc = api?.['service-desc'] as { href: string; type: string }[];
    expect(desc.map((d) => d.href)).toContain(siteUrl(site, '/openapi.json'));
    const openapiLink = desc.find((d) => d.href === siteUrl(site, '/openapi.json'));
    expect(['application/json', 'application/openapi+json', 'application/vnd.oai.openapi+json']).toContain(openapiLink?.type);
    const openapi = await fetchText(onServer(server, openapiLink?.href ?? ''));
    expect(openapi.status).toBe(200);
    expect(openapi.headers.get('content-type')).toMatch(/^application\/(openapi\+)?json/);
    expect((parseJson(openapi.text) as { openapi: string }).openapi).toBe('3.1.0');
    const status = api?.status as { href: string }[];
    expect(status.length).toBeGreaterThan(0);
    for (const s of status) expect((await fetchText(onServer(server, s.href))).status).toBe(200);
  });

  test("the MCP context: no service-desc (nothing describes the endpoint by machine; never the agent card), service-doc is the developer page's MCP section", async () => {
    const body = parseJson((await get('/.well-known/api-catalog')).text) as { linkset: Record<string, unknown>[] };
    const entry = body.linkset.find((c) => c.anchor === siteUrl(site, '/api/mcp'));
    expect(entry, JSON.stringify(body)).toBeDefined();
    expect(entry).toEqual({
      anchor: siteUrl(site, '/api/mcp'),
      'service-doc': [{ href: siteUrl(site, '/developers/#mcp'), type: 'text/html', title: expect.stringMatching(/MCP/) as unknown }],
    });
    expect(JSON.stringify(body)).not.toContain('agent-card.json');
    // The page is built by Astro (not served by this test server): its source has the section.
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'src', 'pages', 'developers', 'index.astro'), 'utf8')).toMatch(/<h2 id="mcp">MCP server<\/h2>/);
  });

  test('every non-HTML target on this site answers 200', async () => {
    const body = parseJson((await get('/.well-known/api-catalog')).text) as { linkset: Record<string, unknown>[] };
    const targets = body.linkset.flatMap((c) =>
      Object.entries(c)
        .filter(([k]) => k !== 'anchor')
        .flatMap(([, v]) => v as { href: string; type: string }[]),
    );
    const checked = targets.filter((t) => t.type !== 'text/html' && new URL(t.href).origin === origin);
    expect(checked.length).toBeGreaterThan(2);
    for (const t of checked) expect((await fetchText(onServer(server, t.href))).status, t.href).toBe(200);
  });
});

// --- A2A agent card ---

describe('/.well-known/agent-card.json (A2A 1.0)', () => {
  interface Skill {
    id: string;
    name: string;
    description: string;
    tags: string[];
  }

  async function card(): Promise<Record<string, unknown>> {
    const { status, headers, text } = await get('/.well-known/agent-card.json');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    return parseJson(text) as Record<string, unknown>;
  }

  test('the required 1.0 fields with their types', async () => {
    const c = await card();
    expect(c.name).toBe(site.name);
    expect(typeof c.description).toBe('string');
    expect((c.description as string).length).toBeGreaterThan(20);
    expect(Array.isArray(c.supportedInterfaces)).toBe(true);
    expect(typeof c.version).toBe('string');
    expect(c.capabilities).toBeTypeOf('object');
    expect(c.capabilities).not.toBeNull();
    for (const key of ['defaultInputModes', 'defaultOutputModes']) {
      const modes = c[key] as string[];
      expect(Array.isArray(modes), key).toBe(true);
      expect(modes.length, key).toBeGreaterThan(0);
      for (const mode of modes) expect(mode, key).toMatch(/^[\w.+-]+\/[\w.+-]+$/);
    }
    const skills = c.skills as Skill[];
    expect(Array.isArray(skills)).toBe(true);
    expect(skills.length).toBeGreaterThanOrEqual(3);
    for (const skill of skills) {
      expect(typeof skill.id).toBe('string');
      expect(typeof skill.name).toBe('string');
      expect(typeof skill.description).toBe('string');
      expect(skill.description.length).toBeGreaterThan(10);
      expect(Array.isArray(skill.tags)).toBe(true);
      expect(skill.tags.length).toBeGreaterThan(0);
      for (const tag of skill.tags) expect(typeof tag).toBe('string');
    }
    expect(new Set(skills.map((s) => s.id)).size).toBe(skills.length);
  });

  test('skills: searching deals, searching startups and submitting a deal, each naming the endpoint that serves it', async () => {
    const skills = (await card()).skills as Skill[];
    const find = (pattern: RegExp) => skills.find((s) => pattern.test(`${s.id} ${s.name}`));
    const search = find(/search.*deal|deal.*search/i);
    const startups = find(/startup/i);
    const submit = find(/submit/i);
    expect(search, JSON.stringify(skills.map((s) => s.id))).toBeDefined();
    expect(startups).toBeDefined();
    expect(submit).toBeDefined();
    expect(search?.description).toContain(siteUrl(site, '/api/v1/deals'));
    expect(startups?.description).toContain(siteUrl(site, '/api/v1/startups'));
    expect(submit?.description).toContain(siteUrl(site, '/api/v1/submit-deal'));
  });

  test('honest: one interface, the A2A endpoint (JSON-RPC, 1.0) that answers on this server; no streaming or push claimed', async () => {
    const c = await card();
    expect(c.supportedInterfaces).toEqual([{ url: siteUrl(site, '/api/a2a'), protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]);
    // No 0.3 fields: the endpoint speaks 1.0 only.
    for (const legacy of ['url', 'protocolVersion', 'preferredTransport']) expect(c, legacy).not.toHaveProperty(legacy);
    const capabilities = c.capabilities as Record<string, unknown>;
    expect(capabilities.streaming).toBe(false);
    expect(capabilities.pushNotifications).toBe(false);
    // The interface is real: a JSON-RPC call there is answered by A2A, not 404 (tests/integration/agents-a2a.test.ts drives it).
    const answer = await fetchText(onServer(server, siteUrl(site, '/api/a2a')), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'aws' }] } } }),
    });
    expect(answer.status).toBe(200);
    expect((parseJson(answer.text) as { result?: { message?: unknown } }).result?.message).toBeDefined();
  });

  test('every skill says where it is served: A2A messages for the searches, the API for submissions', async () => {
    const skills = (await card()).skills as Skill[];
    expect(skills.map((s) => s.id)).toEqual(['search_deals', 'search_startups', 'submit_deal']);
    const byId = Object.fromEntries(skills.map((s) => [s.id, s.description]));
    expect(byId.search_deals).toMatch(/A2A: a text part/);
    expect(byId.search_startups).toMatch(/"skill": "search_startups"/);
    expect(byId.submit_deal).toMatch(/Not an A2A message/);
  });
});

// --- OAuth / OIDC documents ---

describe('sign-in discovery documents (SPEC "Authentication" 6)', () => {
  async function json(path: string): Promise<Record<string, unknown>> {
    const { status, headers, text } = await get(path);
    expect(status, path).toBe(200);
    expect(headers.get('content-type'), path).toMatch(/^application\/json(;|$)/);
    return parseJson(text) as Record<string, unknown>;
  }

  /** The API base URL as the OpenAPI document states it: its server plus the versioned base path. */
  async function apiBaseFromOpenApi(): Promise<string> {
    const doc = parseJson((await get('/openapi.json')).text) as { servers: { url: string }[]; 'x-api-versioning': { versionedBasePath: string } };
    return new URL(doc['x-api-versioning'].versionedBasePath, doc.servers[0]?.url).href;
  }

  test('oauth-protected-resource validates as RFC 9728 metadata (the SDK schema); resource is the API base; no bearer methods', async () => {
    const metadata = await json('/.well-known/oauth-protected-resource');
    const parsed = OAuthProtectedResourceMetadataSchema.safeParse(metadata);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(metadata.resource).toBe(await apiBaseFromOpenApi());
    expect(metadata.resource).toBe(siteUrl(site, '/api/v1'));
    expect(metadata.bearer_methods_supported).toEqual([]);
    // No authorization server's tokens are accepted, so none may be named.
    expect(metadata.authorization_servers ?? []).toEqual([]);
  });

  test('RFC 9728 §3: the metadata of resource <origin>/api/v1 is served at /.well-known/oauth-protected-resource/api/v1', async () => {
    // RFC 9728 §3.1 inserts the well-known suffix between host and path; §3.3: the `resource`
    // value must equal the identifier the metadata URL was formed from.
    const metadata = await json('/.well-known/oauth-protected-resource');
    const resource = new URL(metadata.resource as string);
    const formed = `/.well-known/oauth-protected-resource${resource.pathname === '/' ? '' : resource.pathname}`;
    const { status, text } = await get(formed);
    expect(status, `GET ${formed}`).toBe(200);
    expect((parseJson(text) as { resource: string }).resource).toBe(metadata.resource);
  });

  test.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])('%s: issuer is the site origin; no grant types, response types or endpoints', async (path) => {
    const metadata = await json(path);
    expect(metadata.issuer).toBe(origin);
    expect(new URL(metadata.issuer as string).href.replace(/\/$/, '')).toBe(metadata.issuer);
    expect(metadata.response_types_supported).toEqual([]);
    expect(metadata.grant_types_supported ?? []).toEqual([]);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'userinfo_endpoint', 'device_authorization_endpoint']) {
      expect(metadata[endpoint], `${path} ${endpoint}`).toBeUndefined();
    }
    if (metadata.jwks_uri !== undefined) {
      expect(metadata.jwks_uri).toBe(`${origin}/.well-known/jwks.json`);
    }
  });

  test('jwks.json is an empty JSON Web Key Set', async () => {
    expect(await json('/.well-known/jwks.json')).toEqual({ keys: [] });
  });
});

// --- the member area, as every document words it ---

describe('the member area (issue 18, item 2): every discovery document says it is for people in a browser', () => {
  const note = memberAreaNote(site.baseUrl);

  test('one wording: same-origin, cookie-only sessions, no agent credentials, send the person to /login (or /signup)', () => {
    expect(note).toContain('for people in a browser');
    expect(note).toContain('same-origin, cookie-only sessions');
    expect(note).toContain('no credential for agents');
    expect(note).toContain(`send your person to ${siteUrl(site, '/login')} (new members: ${siteUrl(site, '/signup')})`);
  });

  test('llms.txt, the agent card, the OpenAPI description, the API catalog and the OAuth metadata each say it', async () => {
    expect((await get('/llms.txt')).text).toContain(note);
    expect((parseJson((await get('/.well-known/agent-card.json')).text) as { description: string }).description).toContain(note);
    const openapi = parseJson((await get('/openapi.json')).text) as { info: { description: string }; components: { securitySchemes: { sessionCookie: { description: string } } } };
    expect(openapi.info.description).toContain(note);
    expect(openapi.components.securitySchemes.sessionCookie.description).toMatch(/admin or member.*same-origin only.*No credential can be issued to agents: they send their person to \/login\./);
    const catalog = parseJson((await get('/.well-known/api-catalog')).text) as { linkset: Array<Record<string, Array<{ href: string; title?: string }>>> };
    const api = catalog.linkset.find((c) => (c.anchor as unknown) === siteUrl(site, '/api/v1'));
    expect(api?.['service-doc']?.find((d) => d.href === siteUrl(site, '/developers/#authentication'))?.title).toContain(note);
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      expect((parseJson((await get(path)).text) as { 'x-note': string })['x-note'], path).toContain(note);
    }
  });
});

// --- llms.txt ---

describe('/llms.txt (llmstxt.org)', () => {
  const LINK_ITEM = /^- \[([^\]]+)\]\((https?:\/\/[^\s)]+)\)(?:: .+)?$/;

  async function llms(): Promise<string> {
    const { status, headers, text } = await get('/llms.txt');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/(plain|markdown); charset=utf-8$/);
    return text;
  }

  test('one H1 first, then a "> " summary, then details without headings, then H2 sections', async () => {
    const text = await llms();
    expect(text.length).toBeGreaterThanOrEqual(50);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`# ${site.name}`);
    expect(lines.filter((l) => /^# /.test(l))).toHaveLength(1);
    const afterH1 = lines.slice(1).filter((l) => l.trim() !== '');
    expect(afterH1[0]).toBe(`> ${site.description}`);
    const firstH2 = lines.findIndex((l) => l.startsWith('## '));
    expect(firstH2).toBeGreaterThan(1);
    // Only H1 and H2 headings exist.
    expect(lines.filter((l) => /^#{3,} /.test(l))).toEqual([]);
  });

  test('every H2 section is a non-empty list of "- [title](url)" links; an "## Optional" section exists', async () => {
    const lines = (await llms()).split('\n');
    const sections: { title: string; lines: string[] }[] = [];
    for (const line of lines.slice(lines.findIndex((l) => l.startsWith('## ')))) {
      if (line.startsWith('## ')) sections.push({ title: line.slice(3), lines: [] });
      else if (line.trim() !== '') sections.at(-1)?.lines.push(line);
    }
    expect(sections.length).toBeGreaterThanOrEqual(2);
    for (const section of sections) {
      expect(section.lines.length, section.title).toBeGreaterThan(0);
      for (const line of section.lines) expect(line, section.title).toMatch(LINK_ITEM);
    }
    expect(sections.map((s) => s.title)).toContain('Optional');
  });

  test('links to the OpenAPI document, the MCP server and llms-full.txt, and every non-page link answers', async () => {
    const text = await llms();
    const urls = [...text.matchAll(/\]\((https?:\/\/[^\s)]+)\)/g)].map((m) => m[1] as string);
    for (const path of ['/openapi.json', '/api/mcp', '/llms-full.txt']) expect(urls).toContain(siteUrl(site, path));
    for (const url of urls) expect(new URL(url).origin, url).toBe(origin);
    const documents = urls.filter((u) => /^\/(api\/v1\/|openapi\.json|llms|sitemap\.xml|\.well-known\/)/.test(new URL(u).pathname));
    expect(documents.length).toBeGreaterThan(4);
    for (const url of documents) expect((await fetchText(onServer(server, url))).status, url).toBe(200);
  });
});

// --- llms-full.txt ---

describe('/llms-full.txt', () => {
  test('every live deal title, under the heading of its category; no expired deal', async () => {
    const { status, text } = await get('/llms-full.txt');
    expect(status).toBe(200);
    expect(text.startsWith('# ')).toBe(true);
    const lines = text.split('\n');
    const categories = fixtureCategories();
    const every = await allDeals();
    const live = every.deals.filter((d) => d.status !== 'expired');
    const expired = every.deals.filter((d) => d.status === 'expired');
    expect(live.length).toBeGreaterThan(5);
    expect(expired.length).toBeGreaterThan(0);
    for (const deal of live) {
      const index = lines.findIndex((l) => /^#{2,4} /.test(l) && l.includes(deal.title));
      expect(index, `${deal.title} is missing`).toBeGreaterThan(0);
      expect(
        lines.filter((l) => l.includes(`[${deal.title}]`)),
        deal.title,
      ).toHaveLength(1);
      const heading = lines
        .slice(0, index)
        .reverse()
        .find((l) => /^## /.test(l));
      const category = categories.find((c) => c.slug === deal.category);
      expect(heading, deal.title).toBe(`## ${category?.name}`);
    }
    for (const deal of expired) expect(text, deal.title).not.toContain(deal.title);
    // Each category with live deals has exactly one heading.
    for (const c of categories.filter((c) => live.some((d) => d.category === c.slug))) {
      expect(
        lines.filter((l) => l === `## ${c.name}`),
        c.name,
      ).toHaveLength(1);
    }
  });
});

// --- sitemap.xml and robots.txt ---

describe('/sitemap.xml and /robots.txt', () => {
  interface Entry {
    loc: string;
    lastmod: string | undefined;
  }

  async function sitemap(): Promise<{ text: string; entries: Entry[] }> {
    const { status, headers, text } = await get('/sitemap.xml');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^(application|text)\/xml/);
    const blocks = [...text.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1] as string);
    const entries = blocks.map((block) => {
      const locs = [...block.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => (m[1] as string).replaceAll('&amp;', '&'));
      const lastmods = [...block.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((m) => m[1] as string);
      expect(locs, block).toHaveLength(1);
      expect(lastmods.length, block).toBeLessThanOrEqual(1);
      return { loc: locs[0] as string, lastmod: lastmods[0] };
    });
    return { text, entries };
  }

  test('well-formed urlset: prolog, sitemaps.org namespace, balanced <url> elements, absolute unique locs, W3C dates', async () => {
    const { text, entries } = await sitemap();
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(text).toMatch(/<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    expect(text.trimEnd().endsWith('</urlset>')).toBe(true);
    expect((text.match(/<url>/g) ?? []).length).toBe((text.match(/<\/url>/g) ?? []).length);
    expect(entries.length).toBeGreaterThan(10);
    // Every tag opened is closed, in order (a tiny well-formedness check).
    const stack: string[] = [];
    for (const m of text.replace(/<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)) {
      if (m[3]) continue;
      if (m[1]) expect(stack.pop()).toBe(m[2]);
      else stack.push(m[2] as string);
    }
    expect(stack).toEqual([]);
    for (const { loc, lastmod } of entries) {
      expect(new URL(loc).origin, loc).toBe(origin);
      if (lastmod !== undefined) expect(lastmod, loc).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(new Set(entries.map((e) => e.loc)).size).toBe(entries.length);
  });

  test('every deal page and every startup page, with lastmod equal to its content date', async () => {
    const { entries } = await sitemap();
    const byLoc = new Map(entries.map((e) => [e.loc, e]));
    const deals = (await allDeals()).deals;
    expect(deals.length).toBe(10);
    for (const deal of deals) {
      const entry = byLoc.get(siteUrl(site, `/deals/${deal.slug}/`));
      expect(entry, deal.slug).toBeDefined();
      expect(entry?.lastmod, deal.slug).toBe(deal.lastUpdated);
    }
    const startups = expectStartupList(parseJson((await get('/api/v1/startups')).text)).startups;
    expect(startups.length).toBe(6);
    for (const s of startups) {
      const entry = byLoc.get(siteUrl(site, `/startups/${s.slug}/`));
      expect(entry, s.slug).toBeDefined();
      expect(entry?.lastmod, s.slug).toBe(s.lastUpdated);
    }
    // Deals and startups with a content date all carry a lastmod.
    const dated = [...deals.filter((d) => d.lastUpdated).map((d) => `/deals/${d.slug}/`), ...startups.filter((s) => s.lastUpdated).map((s) => `/startups/${s.slug}/`)];
    expect(dated.length).toBeGreaterThanOrEqual(15);
    for (const path of dated) expect(byLoc.get(siteUrl(site, path))?.lastmod, path).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test('robots.txt names the sitemap with its absolute URL, which answers', async () => {
    const { status, headers, text } = await get('/robots.txt');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = text.split('\n').map((l) => l.trim());
    expect(lines).toContain('User-agent: *');
    const sitemaps = lines.filter((l) => /^sitemap:/i.test(l)).map((l) => l.replace(/^sitemap:\s*/i, ''));
    expect(sitemaps).toEqual([siteUrl(site, '/sitemap.xml')]);
    expect((await fetchText(onServer(server, sitemaps[0] as string))).status).toBe(200);
  });
});

// --- a pending submission is published nowhere ---

describe('a pending submission appears nowhere public', () => {
  test('it really was stored (so the checks below are not vacuous)', () => {
    const dir = join(server.config.dataDir, 'submissions', 'pending');
    expect(existsSync(dir)).toBe(true);
    const contents = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
    expect(contents.some((c) => c.includes(pendingWord))).toBe(true);
  });

  test.each(['/llms.txt', '/llms-full.txt', '/sitemap.xml', '/robots.txt', '/openapi.json', '/.well-known/agent-card.json', '/.well-known/api-catalog'])('not in %s', async (path) => {
    const { status, text } = await get(path);
    expect(status).toBe(200);
    expect(text.toLowerCase()).not.toContain(pendingWord);
    expect(text).not.toContain(pendingCompany);
    expect(text.toLowerCase()).not.toContain('pendingco');
  });

  test('not in the MCP search, the MCP resources or the API', async () => {
    const result = (await mcp.callTool({ name: 'search_deals', arguments: { query: pendingWord, status: 'all', scope: 'all', limit: 50 } })) as {
      structuredContent?: { total: number; deals: unknown[] };
      isError?: boolean;
    };
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent?.total).toBe(0);
    const byName = (await mcp.callTool({ name: 'search_deals', arguments: { query: 'Pendingco', status: 'all', scope: 'all', limit: 50 } })) as { structuredContent?: { total: number } };
    expect(byName.structuredContent?.total).toBe(0);
    for (const uri of ['/llms.txt', '/llms-full.txt', '/sitemap.xml']) {
      const { contents } = await mcp.readResource({ uri: siteUrl(site, uri) });
      expect(JSON.stringify(contents).toLowerCase(), uri).not.toContain(pendingWord);
    }
    expect((await allDeals(`?search=${pendingWord}&status=all&scope=all`)).count).toBe(0);
    expect(JSON.stringify(await allDeals()).toLowerCase()).not.toContain(pendingWord);
  });
});
