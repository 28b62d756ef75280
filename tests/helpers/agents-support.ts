/**
 * Shared helpers for the agent-surface tests (`tests/integration/agents-*.test.ts`): a real
 * server with a private DATA_DIR, the fixture's site settings as the contract source, a `Link`
 * header parser (RFC 8288), an MCP client from the official SDK, and ajv with formats.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FIXTURES, startTestServer, type TestServer } from './server.ts';

export const VALID_FIXTURE = join(FIXTURES, 'valid');

/** The fixture's `site.yaml`: what every absolute URL in the agent documents is built from. */
export interface FixtureSite {
  name: string;
  baseUrl: string;
  description: string;
}

/** Read `site.yaml` of a content tree (independently of the server's own loader). */
export function fixtureSite(contentDir = VALID_FIXTURE): FixtureSite {
  return yaml.load(readFileSync(join(contentDir, 'site.yaml'), 'utf8')) as FixtureSite;
}

/** Category slugs, names and scopes of a content tree's `categories.yaml`, in file order. */
export function fixtureCategories(contentDir = VALID_FIXTURE): { slug: string; name: string; scope: 'deals' | 'programs' }[] {
  const file = yaml.load(readFileSync(join(contentDir, 'categories.yaml'), 'utf8')) as { deals: { slug: string; name: string; scope: 'deals' | 'programs' }[] };
  return file.deals.map(({ slug, name, scope }) => ({ slug, name, scope }));
}

/** The absolute URL the site publishes for `path` (as `site-urls.ts` should build it). */
export function siteUrl(site: FixtureSite, path: string): string {
  return new URL(path, site.baseUrl.endsWith('/') ? site.baseUrl : `${site.baseUrl}/`).href;
}

/** The same path on the running test server (the published URLs name the configured site). */
export function onServer(server: Pick<TestServer, 'url'>, publishedUrl: string): string {
  const url = new URL(publishedUrl);
  return `${server.url}${url.pathname}${url.search}`;
}

export interface AgentsServer extends TestServer {
  dataDir: string;
}

/** The real server over a fresh git copy of `source`, with its own DATA_DIR (nothing lands in `.data/`). */
export async function startAgentsServer(env: Record<string, string> = {}, source = VALID_FIXTURE): Promise<AgentsServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'deals-agents-data-'));
  let server: TestServer;
  try {
    server = await startTestServer(source, { DATA_DIR: dataDir, ...env });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    ...server,
    dataDir,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LinkValue {
  href: string;
  rel: string[];
  params: Record<string, string>;
}

/**
 * Parse a `Link` header (RFC 8288; several fields arrive joined by `, `). A `rel` may name
 * several relations separated by spaces.
 * @example parseLinks('</a>; rel="next", </b>; rel="prev"')
 */
export function parseLinks(header: string | null): LinkValue[] {
  if (!header) return [];
  // Split on commas outside <...> and "...".
  const parts: string[] = [];
  let current = '';
  let inAngle = false;
  let inQuote = false;
  for (const ch of header) {
    if (inQuote) {
      current += ch;
      if (ch === '"') inQuote = false;
      continue;
    }
    if (ch === '"') inQuote = true;
    else if (ch === '<') inAngle = true;
    else if (ch === '>') inAngle = false;
    if (ch === ',' && !inAngle) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^<([^>]*)>(.*)$/s.exec(part);
      if (!match) throw new Error(`unparsable Link value: ${part}`);
      const params: Record<string, string> = {};
      for (const p of (match[2] ?? '').matchAll(/;\s*([^\s=;]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+)))?/g)) {
        params[(p[1] ?? '').toLowerCase()] = p[2] ?? p[3] ?? '';
      }
      return {
        href: match[1] ?? '',
        rel: (params.rel ?? '')
          .split(/\s+/)
          .filter(Boolean)
          .map((r) => r.toLowerCase()),
        params,
      };
    });
}

/** The hrefs of links with relation `rel`. */
export function linksWithRel(header: string | null, rel: string): string[] {
  return parseLinks(header)
    .filter((l) => l.rel.includes(rel))
    .map((l) => l.href);
}

/** A connected MCP client (official SDK, Streamable HTTP) for `${base}/api/mcp`. */
export async function connectMcp(base: string, name = 'agents-test'): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`));
  await client.connect(transport);
  return { client, transport };
}

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** A strict draft 2020-12 validator with formats (uri, date, date-time, email...). */
export function strictAjv(extraKeywords: string[] = []): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  if (extraKeywords.length > 0) ajv.addVocabulary(extraKeywords);
  return ajv;
}

/** GET (or another method) returning status, headers and the body as text. */
export async function fetchText(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Parse JSON or fail with the text in the message. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`not JSON: ${text.slice(0, 300)}`);
  }
}

/** A lower-case letters-only word that no fixture contains. */
export function randomWord(prefix = 'zq'): string {
  let word = prefix;
  for (let i = 0; i < 10; i++) word += String.fromCharCode(97 + Math.floor(Math.random() * 26));
  return word;
}
