/**
 * The change feed (issue 20, item 4) through the real server and a real git content
 * repository: commits made by hand with git (a deal added, a field updated, a slug renamed, a
 * deal expired, a startup deleted, a draft added and then published, an edit that changes no
 * field) and an admin write through the API appear in GET /api/v1/changes as the public sees
 * them, newest first; `since` takes a commit (full or abbreviated), a date or a date-time;
 * pages follow `next`; answers revalidate (304) and move with the commit, even one that leaves
 * the catalog as it was; bad parameters are 400s naming them. /changes.atom is well-formed
 * Atom 1.0 with the same changes, valid against RFC 4287's RELAX NG grammar (jing). Without a git history the answer is 503.
 */
import { mkdtemp, readFile, rm, writeFile, cp, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { createDeps } from '../../functions/deps.ts';
import { createApp } from '../../functions/http/app.ts';
import { createLogger } from '../../functions/ops/log.ts';
import { GitStore } from '../../functions/store/git-store.ts';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { ChangesSchema, type Change, type Changes } from '../../src/schemas/answers.ts';
import { fixtureSite, siteUrl } from '../helpers/agents-support.ts';
import { FIXTURES } from '../helpers/server.ts';
import { ADMIN, call, expectError, git, headOf, useAdminServer } from '../helpers/writes-harness.ts';
import { atomErrors, childrenNamed, parseXml, type XmlElement } from '../helpers/xml.ts';

const server = useAdminServer();
const { admin } = server;
const site = fixtureSite();
const HAND = ['-c', 'user.name=Hand Editor', '-c', 'user.email=hand@example.com'];

/** GET /api/v1/changes with a query, checked against its published schema. */
async function changes(query = ''): Promise<Changes> {
  const result = await call(server.env.url, 'GET', `/api/v1/changes${query}`);
  expect(result.status, result.text).toBe(200);
  return ChangesSchema.parse(result.body);
}

/** Write (or delete, with `null`) content files by hand, commit them with git as another person, and let the server catch up (as a pull would). */
async function handCommit(files: Record<string, string | null>, message: string): Promise<string> {
  for (const [path, text] of Object.entries(files)) {
    const file = join(server.env.contentDir, path);
    if (text === null) await unlink(file);
    else await writeFile(file, text);
  }
  git(server.env.repo, 'add', '-A', '--', 'content');
  git(server.env.repo, ...HAND, 'commit', '-q', '-m', message);
  await server.env.server.deps.content.catchUp();
  return headOf(server.env.repo);
}

const read = (path: string): Promise<string> => readFile(join(server.env.contentDir, path), 'utf8');
/** A change without the parts every one has, for comparing lists. */
const brief = (c: Change) => ({ change: c.change, kind: c.kind, slug: c.slug, ...(c.previousSlug ? { previousSlug: c.previousSlug } : {}), ...(c.fields ? { fields: c.fields } : {}) });

const commits = {} as Record<'initial' | 'added' | 'updated' | 'renamed' | 'expired' | 'removed' | 'draft' | 'published' | 'formatting' | 'admin', string>;

describe('what the history holds', () => {
  test('the first commit added every public record: deals, then startups, each with its page', async () => {
    commits.initial = headOf(server.env.repo);
    const page = await changes();
    expect(page.head).toBe(commits.initial);
    expect(page.complete).toBe(true);
    expect(page.next).toBeUndefined();
    expect(page.changes).toHaveLength(16);
    expect(new Set(page.changes.map((c) => `${c.commit} ${c.change} ${c.via} ${c.message}`))).toEqual(new Set([`${commits.initial} added git Initial content`]));
    expect(page.changes.map((c) => c.kind)).toEqual([...Array<string>(10).fill('deal'), ...Array<string>(6).fill('startup')]);
    const aws = page.changes.find((c) => c.slug === 'aws-activate');
    expect(aws).toMatchObject({ title: 'AWS Activate Founders', url: siteUrl(site, '/deals/aws-activate/') });
    expect(page.changes.find((c) => c.slug === 'petshop')).toMatchObject({ kind: 'startup', title: 'Paws Supply', url: siteUrl(site, '/startups/petshop/') });
    expect(aws?.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('hand commits: added, updated, renamed, expired, removed; a draft only once published; an edit of no field is no change', async () => {
    const aws = await read('deals/aws-activate.md');
    commits.added = await handCommit(
      { 'deals/orbit-credits.md': '---\nid: d-orb00001\ntitle: Orbit credits\nprovider: Orbit\ncategory: cloud-credits\napplicationUrl: https://orbit.example/apply\nstatus: active\n---\nCredits.\n' },
      'Add Orbit by hand',
    );
    commits.updated = await handCommit({ 'deals/aws-activate.md': aws.replace('value: Up to $1,000 in AWS credits', 'value: Up to $5,000 in AWS credits') }, 'Raise the AWS value');
    git(server.env.repo, 'mv', 'content/deals/stripe-atlas.md', 'content/deals/stripe-atlas-program.md');
    commits.renamed = await handCommit({}, 'Rename Stripe Atlas');
    commits.expired = await handCommit({ 'deals/google-cloud.md': (await read('deals/google-cloud.md')).replace(/^status: .*$/m, 'status: expired') }, 'Google Cloud credits ended');
    commits.removed = await handCommit({ 'startups/petshop.md': null }, 'Paws Supply sold');
    const draft = '---\nid: d-sec00001\ntitle: Secret plan\nprovider: Secret\ncategory: cloud-credits\napplicationUrl: https://secret.example/\nstatus: active\ndraft: true\n---\nNot yet.\n';
    commits.draft = await handCommit({ 'deals/secret-plan.md': draft }, 'Draft a secret plan');
    commits.published = await handCommit({ 'deals/secret-plan.md': draft.replace('draft: true\n', '') }, 'Publish the secret plan');
    commits.formatting = await handCommit({ 'deals/notion-plus.md': (await read('deals/notion-plus.md')).replace(/^---\n/, '---\n# An editor note, no field changed\n') }, 'Note in Notion');

    const page = await changes(`?since=${commits.initial}`);
    expect(page.head).toBe(commits.formatting);
    expect(page.changes.map(brief)).toEqual([
      { change: 'added', kind: 'deal', slug: 'secret-plan' },
      { change: 'removed', kind: 'startup', slug: 'petshop' },
      { change: 'expired', kind: 'deal', slug: 'google-cloud', fields: ['status'] },
      { change: 'updated', kind: 'deal', slug: 'stripe-atlas-program', previousSlug: 'stripe-atlas', fields: ['slug'] },
      { change: 'updated', kind: 'deal', slug: 'aws-activate', fields: ['value'] },
      { change: 'added', kind: 'deal', slug: 'orbit-credits' },
    ]);
    expect(page.changes.map((c) => c.commit)).toEqual([commits.published, commits.removed, commits.expired, commits.renamed, commits.updated, commits.added]);
    for (const change of page.changes) expect(change).toMatchObject({ via: 'git' });
    expect(page.changes[0]).toMatchObject({ title: 'Secret plan', message: 'Publish the secret plan', url: siteUrl(site, '/deals/secret-plan/') });
    // A removed record has no page; its last title stays.
    expect(page.changes[1]).toMatchObject({ title: 'Paws Supply' });
    expect(page.changes[1]?.url).toBeUndefined();
    expect(JSON.stringify(page)).not.toContain('hand@example.com');
  });

  test('an admin write through the API: updated, via admin, the fields it changed', async () => {
    const result = await admin('PUT', '/api/v1/deals', { id: 'd-aws00001', shortDescription: 'Credits for self-funded startups.' });
    expect(result.status, result.text).toBe(200);
    commits.admin = headOf(server.env.repo);
    const page = await changes(`?since=${commits.formatting}`);
    expect(page.changes).toHaveLength(1);
    expect(page.changes[0]).toMatchObject({ commit: commits.admin, change: 'updated', kind: 'deal', slug: 'aws-activate', via: 'admin', message: 'Update deal aws-activate' });
    expect(page.changes[0]?.fields).toContain('shortDescription');
    // The admin's e-mail (the commit's author) is not published.
    expect(JSON.stringify(page)).not.toContain(ADMIN.email);
  });
});

describe('since, kind, paging', () => {
  test('since a commit, full or abbreviated; since the head: nothing; a date, a date-time', async () => {
    const full = await changes(`?since=${commits.removed}`);
    expect(full.changes.map((c) => c.slug)).toEqual(['aws-activate', 'secret-plan']);
    expect(await changes(`?since=${commits.removed.slice(0, 10)}`)).toEqual(full);
    expect(await changes(`?since=${commits.admin.toUpperCase()}`)).toMatchObject({ changes: [], complete: true, head: commits.admin });
    expect((await changes('?since=2000-01-01')).changes).toHaveLength(23);
    expect((await changes('?since=2999-01-01')).changes).toEqual([]);
    const at = (await changes(`?since=${commits.initial}`)).changes.find((c) => c.commit === commits.updated)?.date as string;
    const fromThen = await changes(`?since=${encodeURIComponent(at.replace('Z', '+00:00'))}`);
    expect(fromThen.changes.map((c) => c.commit)).toContain(commits.updated);
    expect(fromThen.changes.every((c) => c.date >= at)).toBe(true);
  });

  test('kind: only deals, or only startups', async () => {
    const startups = await changes('?kind=startup');
    expect(startups.changes.map((c) => c.kind)).toEqual(Array<string>(startups.changes.length).fill('startup'));
    expect(startups.changes[0]).toMatchObject({ change: 'removed', slug: 'petshop' });
    expect((await changes(`?kind=deal&since=${commits.expired}`)).changes.map((c) => c.slug)).toEqual(['aws-activate', 'secret-plan']);
  });

  test('pages of 5 following `next` give the whole list, in order, once each; limit above 200 is capped', async () => {
    const whole = await changes('?limit=1000');
    expect(whole.changes).toHaveLength(23);
    const walked: Change[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await changes(`?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...page.changes);
      if (!page.next) break;
      expect(page.changes).toHaveLength(5);
      cursor = page.next;
    }
    expect(walked).toEqual(whole.changes);
    const deals = await changes('?kind=deal&limit=4');
    const rest = await changes(`?kind=deal&limit=100&cursor=${deals.next}`);
    expect([...deals.changes, ...rest.changes]).toEqual((await changes('?kind=deal')).changes);
  });

  test('the /api alias answers the same, with its successor link', async () => {
    const alias = await call(server.env.url, 'GET', '/api/changes?limit=2');
    expect(alias.status).toBe(200);
    expect(alias.headers.get('link')).toContain('</api/v1/changes?limit=2>; rel="successor-version"');
    expect(alias.body).toEqual(await changes('?limit=2'));
  });
});

describe('caching', () => {
  test('an ETag, 304 on If-None-Match; a commit that leaves the catalog as it was still moves the answer', async () => {
    const first = await call(server.env.url, 'GET', '/api/v1/changes?limit=3');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call(server.env.url, 'GET', '/api/v1/changes?limit=3', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    const version = server.env.server.deps.state().catalog.version;
    const head = await handCommit({ 'deals/notion-plus.md': (await read('deals/notion-plus.md')).replace('# An editor note, no field changed\n', '') }, 'Drop the note');
    expect(server.env.server.deps.state().catalog.version).toBe(version);
    const moved = await call(server.env.url, 'GET', '/api/v1/changes?limit=3');
    expect((moved.body as Changes).head).toBe(head);
    expect(moved.headers.get('etag')).not.toBe(etag);
    expect((await call(server.env.url, 'GET', '/api/v1/changes?limit=3', { headers: { 'If-None-Match': etag } })).status).toBe(200);
  });
});

describe('bad parameters: 400 validation_error naming the parameter', () => {
  test.each([
    ['since=yesterday', 'since'],
    ['since=2026-13-01', 'since'],
    ['since=2026-11-20T10:00', 'since'],
    ['since=fffffff', 'since'],
    ['since=abc', 'since'],
    ['kind=program', 'kind'],
    ['limit=0', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=page-2', 'cursor'],
    [`cursor=${'f'.repeat(40)}.0`, 'cursor'],
  ])('%s', async (query, name) => {
    const error = expectError(await call(server.env.url, 'GET', `/api/v1/changes?${query}`), 400, 'validation_error');
    expect(error.error).toContain(`\`${name}\``);
    expect(error.hint).toContain(name);
  });

  test('an unknown commit says so, and how to ask instead', async () => {
    const error = expectError(await call(server.env.url, 'GET', '/api/v1/changes?since=fffffff'), 400, 'validation_error');
    expect(error.error).toBe('Invalid value for query parameter `since`: commit `fffffff` is not on the history of the branch served.');
  });
});

describe('/changes.atom', () => {
  test('well-formed Atom 1.0: feed id, title, updated, self and alternate links, author; an entry per change with id, title, updated, link, summary', async () => {
    const response = await fetch(`${server.env.url}/changes.atom`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const text = await response.text();
    expect(text.startsWith('<?xml version="1.0" encoding="utf-8"?>\n')).toBe(true);
    const feed = parseXml(text);
    expect(feed.name).toBe('feed');
    expect(feed.attributes.xmlns).toBe('http://www.w3.org/2005/Atom');
    const one = (element: XmlElement, name: string): XmlElement => {
      const found = childrenNamed(element, name);
      expect(found, `<${element.name}> has one <${name}>`).toHaveLength(1);
      return found[0] as XmlElement;
    };
    const links = (element: XmlElement) => childrenNamed(element, 'link').map((l) => l.attributes);
    expect(one(feed, 'id').text).toBe(siteUrl(site, '/changes.atom'));
    expect(one(feed, 'title').text).toBe(`${site.name}: changes`);
    expect(links(feed)).toEqual(
      expect.arrayContaining([
        { rel: 'self', type: 'application/atom+xml', href: siteUrl(site, '/changes.atom') },
        { rel: 'alternate', type: 'text/html', href: siteUrl(site, '/') },
      ]),
    );
    expect(one(one(feed, 'author'), 'name').text).toBe(site.name);

    const latest = await changes('?limit=50');
    const entries = childrenNamed(feed, 'entry');
    expect(entries).toHaveLength(latest.changes.length);
    expect(one(feed, 'updated').text).toBe(latest.changes[0]?.date);
    const ids = new Set<string>();
    for (const [i, entry] of entries.entries()) {
      const change = latest.changes[i] as Change;
      const id = one(entry, 'id').text;
      expect(id).toMatch(/^tag:[^,]+,\d{4}-\d\d-\d\d:changes\/[0-9a-f]{40}\/(deal|startup)\/[a-z0-9-]+$/);
      ids.add(id);
      expect(one(entry, 'updated').text).toBe(change.date);
      expect(one(entry, 'title').text).toContain(change.title);
      const [link] = links(entry).filter((l) => l.rel === 'alternate');
      expect(link?.href).toBe(change.url ?? siteUrl(site, change.kind === 'deal' ? '/deals/' : '/startups/'));
      expect(one(entry, 'summary').text).toContain(change.commit.slice(0, 12));
      for (const field of change.fields ?? []) expect(one(entry, 'summary').text).toContain(field);
    }
    expect(ids.size).toBe(entries.length);
  });

  test("valid against RFC 4287's RELAX NG grammar (jing), which refuses a feed with a bad date or an entry without an id", async () => {
    const text = await (await fetch(`${server.env.url}/changes.atom`)).text();
    expect(childrenNamed(parseXml(text), 'entry').length).toBeGreaterThan(3);
    expect(await atomErrors(text)).toEqual([]);
    const broken = text.replace(/<updated>[^<]+<\/updated>/, '<updated>yesterday</updated>').replace(/<entry>\n\s*<id>[^<]+<\/id>/, '<entry>');
    const errors = await atomErrors(broken);
    expect(errors.join('\n')).toMatch(/"updated" invalid; must be an ISO date and time/);
    expect(errors.join('\n')).toMatch(/element "entry" incomplete; missing required element "id"/);
  });

  test('revalidates with its ETag, and every page links to it', async () => {
    const first = await fetch(`${server.env.url}/changes.atom`);
    await first.text();
    const again = await fetch(`${server.env.url}/changes.atom`, { headers: { 'If-None-Match': first.headers.get('etag') as string } });
    expect(again.status).toBe(304);
    const layout = await readFile(join(import.meta.dirname, '..', '..', 'src', 'layouts', 'Base.astro'), 'utf8');
    expect(layout).toContain('<link rel="alternate" type="application/atom+xml" href={paths.changesAtom}');
  });

  test('a subject with characters XML cannot hold still gives a well-formed feed', async () => {
    await handCommit({ 'deals/orbit-credits.md': (await read('deals/orbit-credits.md')).replace('title: Orbit credits', 'title: Orbit "cloud" credits & more') }, 'Bell \u0007 and <tags> & such');
    const text = await (await fetch(`${server.env.url}/changes.atom`)).text();
    const entry = childrenNamed(parseXml(text), 'entry')[0] as XmlElement;
    expect(childrenNamed(entry, 'title')[0]?.text).toBe('Updated: Orbit "cloud" credits & more');
    expect(childrenNamed(entry, 'summary')[0]?.text).toContain('Bell  and <tags> & such');
    expect(await atomErrors(text)).toEqual([]);
  });
});

describe('without a git history', () => {
  let work: string | undefined;
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('503 service_unavailable with Retry-After, for the JSON and the Atom feed (a content folder outside git)', async () => {
    work = await mkdtemp(join(tmpdir(), 'deals-no-history-'));
    const contentDir = join(work, 'content');
    await cp(join(FIXTURES, 'valid'), contentDir, { recursive: true });
    const built = runPipeline(await readContent(contentDir), { today: '2026-11-21' });
    if (!built.value) throw new Error('fixture does not build');
    const deps = createDeps(
      { ...loadConfig({ DATA_DIR: join(work, 'data') }), contentDir },
      createCatalog(built.value.data, built.value.postings),
      await GitStore.open(contentDir),
      'x'.repeat(64),
      createLogger(() => undefined),
    );
    try {
      const app = createApp(deps);
      for (const path of ['/api/v1/changes', '/changes.atom']) {
        const response = await app.fetch(new Request(`http://deals.test${path}`), { address: '203.0.113.9' });
        expect(response.status, path).toBe(503);
        expect(response.headers.get('retry-after')).toBe('60');
        expect(((await response.json()) as { code: string }).code).toBe('service_unavailable');
      }
    } finally {
      await deps.submissions.close();
    }
  });
});
