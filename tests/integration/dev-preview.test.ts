/**
 * The preview loop of `npm run dev` (functions/dev/) on the real server, a real git content
 * folder and real file saves: a save reaches the API, the pages and the open pages' event
 * stream; a save that does not build keeps the last good catalog and says what is wrong, in
 * the event stream, the log and /api/v1/health, until a save fixes it; an admin write reloads
 * the open pages as well.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openDevEvents, type DevEvents } from '../helpers/dev-events.ts';
import { FIXTURES, startTestServer, useTestServer } from '../helpers/server.ts';
import { ADMIN, addAccount, call, login } from '../helpers/writes-harness.ts';

const SITE = join(FIXTURES, '..', 'site');

describe('npm run dev', () => {
  const server = useTestServer(join(FIXTURES, 'valid'), {}, { site: SITE, dev: true });
  let events: DevEvents | undefined;
  afterEach(() => events?.close());

  const deal = async (slug: string) => ((await (await fetch(`${server.url}/api/v1/deals?slug=${slug}`)).json()) as { deal: { title: string; category: string } }).deal;
  const health = async () => (await (await fetch(`${server.url}/api/v1/health`)).json()) as { status: string; problems: string[]; content: { problem?: string } };
  const file = (path: string) => join(server.config.contentDir, path);
  /** Save as editors do: a new file renamed over the old one. */
  const save = async (path: string, edit: (text: string) => string) => {
    const text = edit(await readFile(file(path), 'utf8'));
    await writeFile(`${file(path)}.tmp~`, text);
    await rename(`${file(path)}.tmp~`, file(path));
  };

  test('a saved deal is served by the API and its page, and open pages are told to reload', async () => {
    events = await openDevEvents(server.url);
    await events.next('hello');
    await save('deals/stripe-atlas.md', (text) => text.replace(/^title: .*$/m, 'title: Stripe Atlas, edited'));
    await events.next('reload');
    expect((await deal('stripe-atlas')).title).toBe('Stripe Atlas, edited');
    // The page's Markdown twin is rendered live from the new catalog (the fixture site has no Astro renderer).
    const page = await fetch(`${server.url}/deals/stripe-atlas/index.md`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Stripe Atlas, edited');

    // The same file saved twice more in a row: each save is seen (an atomic save replaces the file).
    await save('deals/stripe-atlas.md', (text) => text.replace(/^title: .*$/m, 'title: Stripe Atlas, again'));
    await events.next('reload');
    expect((await deal('stripe-atlas')).title).toBe('Stripe Atlas, again');
  });

  test('a saved startup is served without rebuilding the deals', async () => {
    events = await openDevEvents(server.url);
    await events.next('hello');
    const dealsBefore = server.deps.state().catalog.deals;
    await save('startups/formbird.md', (text) => text.replace(/^name: .*$/m, 'name: Formbird Renamed'));
    await events.next('reload');
    const listed = (await (await fetch(`${server.url}/api/v1/startups?limit=100`)).json()) as { startups: { slug: string; name: string }[] };
    expect(listed.startups.find((s) => s.slug === 'formbird')?.name).toBe('Formbird Renamed');
    expect(server.deps.state().catalog.deals).toBe(dealsBefore);
  });

  test('a deal saved with `draft: true` leaves the API and its page; the line removed, it is back', async () => {
    events = await openDevEvents(server.url);
    await events.next('hello');
    await save('deals/notion-plus.md', (text) => text.replace(/^title: .*$/m, '$&\ndraft: true'));
    await events.next('reload');
    expect((await fetch(`${server.url}/api/v1/deals?slug=notion-plus`)).status).toBe(404);
    expect((await fetch(`${server.url}/deals/notion-plus/index.md`)).status).toBe(404);
    expect(server.deps.state().catalog.drafts?.deals.map((d) => d.slug)).toEqual(['notion-plus']);

    await save('deals/notion-plus.md', (text) => text.replace(/^draft: true\n/m, ''));
    await events.next('reload');
    expect((await fetch(`${server.url}/api/v1/deals?slug=notion-plus`)).status).toBe(200);
    expect(server.deps.state().catalog.drafts?.deals).toEqual([]);
  });

  test('a save that does not build keeps the last good catalog and shows the error until it is fixed', async () => {
    events = await openDevEvents(server.url);
    await events.next('hello');
    const before = await deal('aws-activate');
    await save('deals/aws-activate.md', (text) => text.replace(/^category: .*$/m, 'category: sass-discounts').replace(/^title: .*$/m, 'title: Broken'));

    const problem = await events.next('problem');
    expect((problem.data.lines as string[]).join('\n')).toContain('content/deals/aws-activate.md:5 category:');
    expect(await deal('aws-activate')).toEqual(before);
    const degraded = await health();
    expect(degraded.problems).toEqual(['content_invalid']);
    expect(degraded.content.problem).toMatch(/^content in the working tree does not build: content\/deals\/aws-activate\.md:5 category: /);
    expect(server.errors.splice(0).map((line) => JSON.parse(line).event)).toEqual(['content_invalid']);

    // A page opened (or reloaded) meanwhile gets the problem at once.
    const late = await openDevEvents(server.url);
    await late.next('problem', 1_000);
    late.close();

    // Another file saved meanwhile is served with the broken one still left out.
    await save('deals/heroku-credits.md', (text) => text.replace(/^title: .*$/m, 'title: Heroku, saved while another file is broken'));
    await events.next('problem');
    server.errors.splice(0);

    await save('deals/aws-activate.md', (text) => text.replace(/^category: .*$/m, 'category: cloud-credits'));
    await events.next('ok');
    await events.next('reload');
    expect((await deal('aws-activate')).title).toBe('Broken');
    expect((await deal('heroku-credits')).title).toBe('Heroku, saved while another file is broken');
    expect((await health()).problems).toEqual([]);
  });

  test('an admin write reloads the open pages too, once (its own file, seen by the watcher, is no second change)', async () => {
    addAccount(server.config.dataDir, ADMIN);
    const cookie = await login(server.url, ADMIN);
    events = await openDevEvents(server.url);
    await events.next('hello');
    const written = await call(server.url, 'PUT', '/api/v1/deals', { cookie, body: { slug: 'techstars', title: 'Techstars, written by an admin' } });
    expect(written.status, written.text).toBe(200);
    await events.next('reload');
    await expect(events.next('reload', 500)).rejects.toThrow('no `reload` event in 500 ms');
    expect((await deal('techstars')).title).toBe('Techstars, written by an admin');
  });

  test('pages carry the page script; the script and the event stream are served', async () => {
    const page = await fetch(`${server.url}/deals/`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-encoding')).toBeNull();
    expect(await page.text()).toContain('<script type="module" src="/_dev/client.js"></script></body>');
    const script = await fetch(`${server.url}/_dev/client.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain("new EventSource('/_dev/events')");
  });
});

test('npm start has no preview loop: no page script, no event stream', async () => {
  const server = await startTestServer(join(FIXTURES, 'valid'), {}, { site: SITE });
  try {
    expect(await (await fetch(`${server.url}/deals/`)).text()).not.toContain('/_dev/client.js');
    expect((await fetch(`${server.url}/_dev/events`)).status).toBe(404);
    expect(server.dev).toBeUndefined();
  } finally {
    await server.stop();
  }
});
