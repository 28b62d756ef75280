/**
 * The site's address when content/site.yaml names none: the address the server listens on, so a
 * first run on any port links to itself; a build made for another address is not current.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { listenUrl, loadConfig } from '../../functions/config.ts';
import { DEFAULT_BASE_URL, runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { FIXTURES } from '../helpers/server.ts';

const work = await mkdtemp(join(tmpdir(), 'base-url-'));
afterAll(() => rm(work, { recursive: true, force: true }));

/** The valid fixture with its site.yaml's baseUrl line removed. */
async function contentWithoutBaseUrl(): Promise<string> {
  const dir = join(work, `content-${Math.random().toString(36).slice(2)}`);
  await cp(join(FIXTURES, 'valid'), dir, { recursive: true });
  const site = await readFile(join(dir, 'site.yaml'), 'utf8');
  expect(site).toMatch(/^baseUrl: /m);
  await writeFile(join(dir, 'site.yaml'), site.replace(/^baseUrl: .*\n/m, ''));
  return dir;
}

describe('listenUrl', () => {
  test.each([
    [{ HOST: '127.0.0.1', PORT: '4700' }, 'http://127.0.0.1:4700'],
    [{ PORT: '4700' }, 'http://127.0.0.1:4700'],
    [{}, 'http://127.0.0.1:4321'],
    [{ HOST: '0.0.0.0', PORT: '8080' }, 'http://localhost:8080'],
    [{ HOST: '::', PORT: '8080' }, 'http://localhost:8080'],
    [{ HOST: '::1', PORT: '8080' }, 'http://[::1]:8080'],
    [{ HOST: 'deals.internal', PORT: '80' }, 'http://deals.internal'],
  ])('%j → %s', (env, url) => {
    expect(listenUrl(loadConfig(env))).toBe(url);
    expect(new URL(url).href).toBe(`${url}/`);
  });
});

describe('site.yaml without baseUrl', () => {
  test('takes the address it is given, and the default address without one', async () => {
    const sources = await readContent(await contentWithoutBaseUrl());
    const given = runPipeline(sources, { today: '2026-11-24', baseUrl: 'http://127.0.0.1:4700' });
    expect(given.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(given.value?.data.site.baseUrl).toBe('http://127.0.0.1:4700');
    expect(runPipeline(sources, { today: '2026-11-24' }).value?.data.site.baseUrl).toBe(DEFAULT_BASE_URL);
  });

  test('a baseUrl in the file wins over the listen address', async () => {
    const sources = await readContent(join(FIXTURES, 'valid'));
    const built = runPipeline(sources, { today: '2026-11-24', baseUrl: 'http://127.0.0.1:4700' });
    expect(built.value?.data.site.baseUrl).not.toBe('http://127.0.0.1:4700');
    expect(built.value?.data.site.baseUrl).toMatch(/^https?:\/\//);
  });

  test('the starter content names none, so a first run links to where it listens', async () => {
    const starter = await readFile(join(import.meta.dirname, '..', '..', 'content', 'site.yaml'), 'utf8');
    expect(starter).not.toMatch(/^baseUrl:/m);
  });
});
