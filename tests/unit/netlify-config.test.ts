/**
 * The Netlify packaging as files (docs/deploying.md, "Serverless"): the function's paths cover
 * the API and every document the app renders, netlify.toml sends the Node server's security
 * headers on static files, and the Markdown edge function negotiates as the Node server does
 * (functions/http/negotiate.ts), with real Requests against a built-site folder served over
 * node:http (standing in for Netlify's static files and `context.next()`).
 */
import { mkdtemp, readdir, readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DOCUMENT_ROUTES } from '../../functions/http/routes.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import markdown, { config as edgeConfig } from '../../netlify/edge-functions/markdown.ts';
import { config as functionConfig } from '../../netlify/functions/api.ts';
import { config as hourlyConfig } from '../../netlify/functions/hourly.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** A Netlify path pattern (URLPattern syntax, as Netlify reads it) matching a path. */
const matches = (pattern: string, path: string): boolean => new URLPattern({ pathname: pattern }).test({ pathname: path });

/** The routes of Astro's on-demand pages (`prerender = false`), but the internal live-page route. */
async function onDemandRoutes(): Promise<string[]> {
  const pages = join(ROOT, 'src', 'pages');
  const routes: string[] = [];
  for (const file of await readdir(pages, { recursive: true })) {
    if (!file.endsWith('.astro') || !(await readFile(join(pages, file), 'utf8')).includes('prerender = false')) continue;
    const route = `/${file.replace(/\.astro$/, '').replace(/(^|\/)index$/, '')}`.replace(/\/$/, '');
    if (route !== '/live/page') routes.push(route || '/');
  }
  return routes;
}

test('the function claims the API and every document the app renders (none is a static file of the build)', () => {
  const paths = [...DOCUMENT_ROUTES.map((route) => route.path), '/api/v1/deals', '/api/mcp', '/api/v1/auth/login'];
  for (const path of paths)
    expect(
      functionConfig.path.some((pattern) => matches(pattern, path)),
      path,
    ).toBe(true);
  // The edge function leaves them alone.
  for (const path of ['/api/v1/deals', '/.well-known/agent-card.json', '/_astro/x.css'])
    expect(
      edgeConfig.excludedPath.some((pattern) => matches(pattern, path)),
      path,
    ).toBe(true);
});

test('the function claims every on-demand page, with and without its trailing slash, and leaves built files first', async () => {
  const routes = await onDemandRoutes();
  expect(routes).toEqual(expect.arrayContaining(['/login', '/account', '/account/billing', '/submit', '/deals/search']));
  for (const route of routes)
    for (const path of [route, `${route}/`])
      expect(
        functionConfig.path.some((pattern) => matches(pattern, path)),
        path,
      ).toBe(true);
  // A prerendered page under those paths (/account/deleted/) is a file of the build, which wins.
  expect(functionConfig.preferStatic).toBe(true);
  // The function is bundled with the server renderer and the 404 page it falls back to.
  const toml = await readFile(join(ROOT, 'netlify.toml'), 'utf8');
  expect(toml).toMatch(/included_files = \[[^\]]*"dist\/server\/\*\*"[^\]]*"dist\/client\/404\.html"/);
});

test('the scheduled function runs hourly', () => {
  expect(hourlyConfig.schedule).toBe('@hourly');
});

test('netlify.toml: build, publish folder, functions with the generated indexes, Node 24, and the security headers of the Node server', async () => {
  const toml = await readFile(join(ROOT, 'netlify.toml'), 'utf8');
  expect(toml).toContain('command = "npm run build"');
  expect(toml).toContain('publish = "dist/client"');
  expect(toml).toContain('directory = "netlify/functions"');
  expect(toml).toMatch(/included_files = \[[^\]]*"generated\/\*\*"/);
  expect(toml).toContain('NODE_VERSION = "24"');
  for (const [name, value] of Object.entries(securityHeaders(true))) expect(toml, name).toContain(`${name} = "${value}"`);
});

describe('the Markdown edge function', () => {
  let site: string;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    site = await mkdtemp(join(tmpdir(), 'deals-edge-'));
    await mkdir(join(site, 'deals', 'acme'), { recursive: true });
    await writeFile(join(site, 'deals', 'acme', 'index.html'), '<!doctype html><title>Acme</title>');
    await writeFile(join(site, 'deals', 'acme', 'index.md'), '# Acme\n');
    await mkdir(join(site, 'no-twin'));
    await writeFile(join(site, 'no-twin', 'index.html'), '<!doctype html><title>No twin</title>');
    // Netlify's static files, as plainly as possible: folder/index.html, files as they are.
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      readFile(join(site, path.endsWith('/') ? `${path}index.html` : path)).then(
        (body) => res.writeHead(200, { 'Content-Type': path.endsWith('.md') ? 'text/markdown' : 'text/html' }).end(body),
        () => res.writeHead(404).end('not found'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(site, { recursive: true, force: true });
  });

  const run = (path: string, accept?: string, method = 'GET') => {
    const request = new Request(`${base}${path}`, { method, headers: accept ? { Accept: accept } : {} });
    return markdown(request, { next: () => fetch(request) });
  };

  test('Accept preferring text/markdown gets the twin, with Vary: Accept', async () => {
    for (const path of ['/deals/acme/', '/deals/acme']) {
      const response = (await run(path, 'text/markdown, text/html;q=0.9')) as Response;
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(response.headers.get('vary')).toBe('Accept');
      expect(await response.text()).toBe('# Acme\n');
    }
  });

  test('a browser gets the page, also with Vary: Accept', async () => {
    const response = (await run('/deals/acme/', 'text/html,application/xhtml+xml,*/*;q=0.8')) as Response;
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(await response.text()).toContain('<title>Acme</title>');
  });

  test('a page without a twin stays HTML; files and other methods are passed through', async () => {
    const response = (await run('/no-twin/', 'text/markdown')) as Response;
    expect(await response.text()).toContain('No twin');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(await run('/deals/acme/index.md', 'text/markdown')).toBeUndefined();
    expect(await run('/llms.txt', 'text/markdown')).toBeUndefined();
    expect(await run('/deals/acme/', 'text/markdown', 'POST')).toBeUndefined();
  });
});
