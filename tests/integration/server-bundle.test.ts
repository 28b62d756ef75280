/**
 * The server bundle (scripts/_server-bundle.ts): made with esbuild into a folder of this test's
 * own, it is used only while the files it was made from are unchanged, and the real server
 * (`scripts/serve.ts` as a child process) runs from it as from source: reads, search, MCP
 * through the SDK's client, and an admin create whose slug is made on first use of the slug
 * library and whose commit is found by search afterwards (the search index rebuilt on a
 * worker thread loaded from source).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleServer, staleBecause } from '../../scripts/_server-bundle.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';
import { ADMIN, PROJECT_ROOT, addAccount, call, eventually, git, login } from '../helpers/writes-harness.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { connectMcp } from '../helpers/agents-support.ts';

let work: string;
let bundle: string;
let contentDir: string;
let generatedDir: string;
let dataDir: string;
const children: ChildServer[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-bundle-'));
  bundle = join(work, 'bundle');
  contentDir = await gitContentCopy(join(FIXTURES, 'valid'), work);
  generatedDir = join(work, 'generated');
  dataDir = join(work, 'data');
  addAccount(dataDir, ADMIN);
  await buildGenerated(contentDir, generatedDir);
  await bundleServer(bundle);
}, 120_000);
afterAll(async () => {
  await Promise.all(children.map((child) => child.stop()));
  await rm(work, { recursive: true, force: true });
});

function serve(serverBundle: string): Promise<ChildServer> {
  return startChildServer({ contentDir, generatedDir, dataDir, env: { SERVER_BUNDLE: serverBundle } }).then((child) => {
    children.push(child);
    return child;
  });
}

/** A copy of the bundle's manifest, changed by `edit`, in a folder of its own (without the bundle). */
function changedManifest(name: string, edit: (manifest: { node: string; root: string; inputs: Record<string, [number, number]> }) => void): string {
  const folder = join(work, name);
  mkdirSync(folder, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as Parameters<typeof edit>[0];
  edit(manifest);
  writeFileSync(join(folder, 'manifest.json'), JSON.stringify(manifest));
  return folder;
}

describe('when the bundle is used', () => {
  test('it is current once made: made from the project’s modules and the lock files, no package file among them', () => {
    expect(staleBecause(bundle)).toBeUndefined();
    const inputs = Object.keys((JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as { inputs: object }).inputs);
    expect(inputs).toEqual(
      expect.arrayContaining(['scripts/_serve-process.ts', 'functions/server.ts', 'src/catalog/catalog.ts', 'scripts/_ascii-source.ts', 'package-lock.json', 'node_modules/.package-lock.json']),
    );
    expect(inputs.filter((path) => path.startsWith('node_modules/') && path !== 'node_modules/.package-lock.json')).toEqual([]);
  });

  test('the packages left to Node are imported from the project’s node_modules, so a bundle kept outside the project loads them', () => {
    const text = readFileSync(join(bundle, 'server.mjs'), 'utf8');
    const imported = [...text.matchAll(/import\("([^"]+)"\)/g)].map((match) => match[1] ?? '').filter((name) => !name.startsWith('node:'));
    expect(imported.length).toBeGreaterThanOrEqual(5);
    for (const name of imported) {
      expect(name).toMatch(/^file:\/\/.*\/node_modules\//);
      expect(existsSync(fileURLToPath(name)), name).toBe(true);
    }
    expect(text).toContain(`__bundleRequire(${JSON.stringify(pathToFileURL(join(PROJECT_ROOT, 'package.json')).href)})`);
  });

  test('its code is ASCII throughout (scripts/_ascii-source.ts), so V8 holds it one byte a character', () => {
    const text = readFileSync(join(bundle, 'server.mjs'), 'utf8');
    expect(text.match(/^.*[^\0-\x7f].*$/gm) ?? []).toEqual([]);
  });

  test('a changed file, another Node or no bundle at all: not current, and it says why', () => {
    const edited = changedManifest('edited', (manifest) => {
      const recorded = manifest.inputs['functions/server.ts'];
      if (recorded) recorded[0] += 1;
    });
    expect(staleBecause(edited)).toBe('functions/server.ts changed');
    expect(staleBecause(changedManifest('touched', (manifest) => (manifest.inputs['src/catalog/catalog.ts']![1] -= 1000)))).toBe('src/catalog/catalog.ts changed');
    expect(staleBecause(changedManifest('old-node', (manifest) => (manifest.node = 'v22.0.0')))).toBe('it was made with Node v22.0.0');
    expect(staleBecause(changedManifest('elsewhere', (manifest) => (manifest.root = '/srv/another-checkout')))).toBe('it was made from /srv/another-checkout');
    expect(staleBecause(changedManifest('gone', (manifest) => (manifest.inputs['functions/no-such-module.ts'] = [1, 1])))).toBe('functions/no-such-module.ts changed');
    expect(staleBecause(join(work, 'nothing-here'))).toBe('there is none');
  });
});

describe('the server from the bundle', () => {
  let child: ChildServer;
  beforeAll(async () => {
    child = await serve(bundle);
  });

  test('says so, and answers reads, search and MCP as from source', async () => {
    expect(child.output).toContain(`running from the server bundle in ${bundle}`);
    const deals = await call(child.url, 'GET', '/api/v1/deals?search=aws%20credits&limit=5');
    expect(deals.status).toBe(200);
    expect((deals.body as { deals: { slug: string }[] }).deals.map((deal) => deal.slug)).toContain('aws-activate');
    const bySlug = await call(child.url, 'GET', '/api/v1/deals?slug=aws-activate');
    expect(bySlug.body).toMatchObject({ deal: { slug: 'aws-activate' } });
    const { client } = await connectMcp(child.url, 'bundle-test');
    try {
      const found = (await client.callTool({ name: 'search_deals', arguments: { query: 'aws' } })) as { structuredContent?: { deals?: { slug: string }[] } };
      expect(found.structuredContent?.deals?.map((deal) => deal.slug)).toContain('aws-activate');
    } finally {
      await client.close();
    }
    expect(child.errors()).toEqual([]);
  });

  test('an admin create is committed, its slug made from a Cyrillic title, and search finds it', async () => {
    const cookie = await login(child.url, ADMIN);
    const created = await call(child.url, 'POST', '/api/v1/deals', {
      cookie,
      body: { title: 'Москва Zyxbundle Credits', provider: 'Bundle Co', category: 'cloud-credits', applicationUrl: 'https://bundle.example/apply' },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ deal: { slug: 'moskva-zyxbundle-credits' } });
    expect(git(dirname(contentDir), 'log', '-1', '--format=%ae').trim()).toBe(ADMIN.email);
    await eventually(async () => {
      const found = await call(child.url, 'GET', '/api/v1/deals?search=zyxbundle');
      return (found.body as { deals?: { slug: string }[] }).deals?.some((deal) => deal.slug === 'moskva-zyxbundle-credits') ?? false;
    });
    expect(child.errors()).toEqual([]);
  });
});

test('a stale bundle is not used: the server runs from source and says why', async () => {
  const stale = changedManifest('stale', (manifest) => (manifest.inputs['functions/server.ts']![0] += 1));
  cpSync(join(bundle, 'server.mjs'), join(stale, 'server.mjs'));
  const child = await serve(stale);
  expect(child.output).toContain('server bundle not used (functions/server.ts changed): running from source; npm run build bundles it again');
  expect(child.output.join('\n')).not.toContain('running from the server bundle');
  expect((await call(child.url, 'GET', '/api/v1/health')).status).toBe(200);
});
