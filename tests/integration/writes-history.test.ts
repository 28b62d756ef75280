/**
 * History and revert of deals and startups (issue 16, item 3) through the real server and a real
 * git content repository: the history lists the commits that changed a record, made through the
 * admin or by hand with git in the work tree, with the fields each changed (old → new), following
 * a rename by slug change; a revert puts a listed version back as a new commit authored by the
 * admin, under If-Match, and the served catalog follows. Commit ids are checked before git sees them.
 */
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { RecordHistorySchema, type RecordHistory, type RecordVersion } from '../../src/schemas/answers.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import type { Startup } from '../../src/schemas/startup.ts';
import { DealSingleSchema, expectStartupList } from '../helpers/api-schemas.ts';
import { ADMIN, call, changedFiles, commitCount, expectError, expectUnchanged, git, headOf, repoState, uniqueWord, useAdminServer } from '../helpers/writes-harness.ts';

const server = useAdminServer();
const { admin } = server;

const today = (): string => new Date().toISOString().slice(0, 10);

/** A history page, checked against its published schema. */
async function history(kind: 'deals' | 'startups', query: string): Promise<RecordHistory> {
  const result = await admin('GET', `/api/v1/admin/${kind}/history?${query}`);
  expect(result.status, result.text).toBe(200);
  return RecordHistorySchema.parse(result.body);
}

/** The public lookup of a deal: the deal and its ETag, or undefined on 404. */
async function publicDeal(slug: string): Promise<{ deal: Deal; etag: string } | undefined> {
  const result = await call(server.env.url, 'GET', `/api/v1/deals?slug=${slug}`);
  if (result.status === 404) return undefined;
  expect(result.status, result.text).toBe(200);
  return { deal: DealSingleSchema.parse(result.body).deal as Deal, etag: result.headers.get('etag') as string };
}

/** Edit a content file by hand and commit it with git as another person, then let the server catch up (as a pull would). */
async function handCommit(path: string, edit: (text: string) => string, message: string): Promise<string> {
  const file = join(server.env.contentDir, path);
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  git(server.env.repo, '-c', 'user.name=Hand Editor', '-c', 'user.email=hand@example.com', 'commit', '-q', '-m', message, '--', `content/${path}`);
  await server.env.server.deps.content.catchUp();
  return headOf(server.env.repo);
}

const fieldsOf = (version: RecordVersion | undefined) => Object.fromEntries((version?.fields ?? []).map((f) => [f.field, [f.from, f.to]]));

describe("a deal's history: admin writes and a hand commit, across a rename", () => {
  const word = uniqueWord();
  const slug = `orbit-${word}-credits`;
  const renamed = `orbit-${word}-cloud`;
  const commits = {} as Record<'created' | 'edited' | 'hand' | 'renamed', string>;
  let id = '';

  test('created, edited in the admin, edited by hand in git, renamed in the admin: four versions, newest first', async () => {
    const created = await admin('POST', '/api/v1/deals', {
      title: `Orbit ${word} credits`,
      provider: 'Orbit',
      category: 'cloud-credits',
      applicationUrl: 'https://orbit.example/apply',
      value: '$1,000',
    });
    expect(created.status, created.text).toBe(200);
    id = (created.body as { deal: Deal }).deal.id;
    commits.created = headOf(server.env.repo);
    const edited = await admin('PUT', '/api/v1/deals', { id, value: '$2,000', tags: ['cloud'] });
    expect(edited.status, edited.text).toBe(200);
    commits.edited = headOf(server.env.repo);
    commits.hand = await handCommit(
      `deals/${slug}.md`,
      (text) => text.replace(`title: Orbit ${word} credits`, `title: Orbit ${word} cloud credits`).replace('verified: false', 'verified: true'),
      'Fix the title by hand',
    );
    // The hand commit is served (catch-up), so the admin works from it.
    expect((await publicDeal(slug))?.deal.title).toBe(`Orbit ${word} cloud credits`);
    const moved = await admin('PUT', '/api/v1/deals', { id, slug: renamed });
    expect(moved.status, moved.text).toBe(200);
    commits.renamed = headOf(server.env.repo);

    const page = await history('deals', `id=${id}`);
    expect(page).toMatchObject({ success: true, id, slug: renamed, offset: 0, limit: 20, more: false });
    expect(page.history.map((v) => v.commit)).toEqual([commits.renamed, commits.hand, commits.edited, commits.created]);
    const [rename, hand, edit, create] = page.history;

    expect(rename).toMatchObject({ via: 'admin', change: 'renamed', slug: renamed, message: `Rename deal ${slug} to ${renamed}`, author: { email: ADMIN.email } });
    expect(rename?.fields).toEqual([{ field: 'slug', from: slug, to: renamed }]);

    expect(hand).toMatchObject({ via: 'git', change: 'updated', slug, message: 'Fix the title by hand', author: { name: 'Hand Editor', email: 'hand@example.com' } });
    expect(hand?.fields).toEqual([
      { field: 'title', from: `Orbit ${word} credits`, to: `Orbit ${word} cloud credits` },
      { field: 'verified', from: false, to: true },
    ]);

    expect(edit).toMatchObject({ via: 'admin', change: 'updated', slug, message: `Update deal ${slug}`, author: { email: ADMIN.email } });
    expect(edit?.fields).toEqual([
      { field: 'value', from: '$1,000', to: '$2,000' },
      { field: 'tags', to: ['cloud'] },
    ]);

    expect(create).toMatchObject({ via: 'admin', change: 'created', slug, message: `Add deal ${slug}` });
    expect(fieldsOf(create)).toMatchObject({
      id: [undefined, id],
      slug: [undefined, slug],
      title: [undefined, `Orbit ${word} credits`],
      value: [undefined, '$1,000'],
      lastUpdated: [undefined, today()],
    });
    for (const version of page.history) expect(Date.parse(version.date)).not.toBeNaN();
  });

  test('a page at a time: `limit` and `offset`, `more` while older versions follow; the slug names it too', async () => {
    const first = await history('deals', `slug=${renamed}&limit=2`);
    expect(first.history.map((v) => v.commit)).toEqual([commits.renamed, commits.hand]);
    expect(first.more).toBe(true);
    const second = await history('deals', `slug=${renamed}&limit=2&offset=2`);
    expect(second.history.map((v) => v.commit)).toEqual([commits.edited, commits.created]);
    expect(second.more).toBe(false);
    expect((await history('deals', `id=${id}&limit=500`)).limit).toBe(100);
    expect((await history('deals', `id=${id}&offset=9999`)).history).toEqual([]);
    expectError(await admin('GET', `/api/v1/admin/deals/history?id=${id}&offset=10000`), 400, 'validation_error');
    expectError(await admin('GET', `/api/v1/admin/deals/history?id=${id}&limit=0`), 400, 'validation_error');
    expectError(await admin('GET', '/api/v1/admin/deals/history'), 400, 'validation_error');
    expectError(await admin('GET', '/api/v1/admin/deals/history?id=d-nope0000'), 404, 'not_found');
    expectError(await admin('GET', '/api/v1/admin/deals/history?slug=never-existed'), 404, 'not_found');
    expectError(await admin('GET', '/api/v1/admin/deals/history?slug=..%2F..%2Fsite'), 400, 'validation_error');
    expectError(await admin('GET', `/api/v1/admin/deals/history?slug=${'a'.repeat(121)}`), 400, 'validation_error');
  });

  test('revert to the admin edit: one new commit by the admin restoring its values (the slug too); the served catalog follows', async () => {
    const current = (await publicDeal(renamed)) as { deal: Deal; etag: string };
    const before = repoState(server.env.repo);
    const result = await admin('POST', '/api/v1/admin/deals/revert', { id, commit: commits.edited }, { 'If-Match': current.etag });
    expect(result.status, result.text).toBe(200);
    const body = result.body as { deal: Deal; commit: string; revertedTo: string };
    expect(body.revertedTo).toBe(commits.edited);
    expect(body.commit).toBe(headOf(server.env.repo));
    expect(body.deal).toMatchObject({ id, slug, title: `Orbit ${word} credits`, value: '$2,000', tags: ['cloud'], verified: false });
    expect(result.headers.get('etag')).toBe((await publicDeal(slug))?.etag);

    expect(commitCount(server.env.repo)).toBe(before.count + 1);
    expect(git(server.env.repo, 'log', '-1', '--format=%ae|%s').trim()).toBe(`${ADMIN.email}|Revert deal ${slug} to ${commits.edited.slice(0, 12)}`);
    const changes = changedFiles(server.env.repo);
    expect(changes[0]?.[0]).toMatch(/^R\d+$/);
    expect(changes[0]?.slice(1)).toEqual([`content/deals/${renamed}.md`, `content/deals/${slug}.md`]);
    expect(git(server.env.repo, 'diff', commits.edited, 'HEAD', '--', `content/deals/${slug}.md`)).toBe('');

    expect((await publicDeal(slug))?.deal).toEqual(body.deal);
    expect(await publicDeal(renamed)).toBeUndefined();
    const search = await call(server.env.url, 'GET', `/api/v1/deals?search=${word}&status=all`);
    expect((search.body as { deals: Deal[] }).deals.map((d) => d.slug)).toEqual([slug]);

    const [revert] = (await history('deals', `id=${id}&limit=1`)).history;
    expect(revert).toMatchObject({ commit: body.commit, via: 'admin', change: 'renamed', slug, author: { email: ADMIN.email } });
    expect(fieldsOf(revert)).toEqual({ slug: [renamed, slug], title: [`Orbit ${word} cloud credits`, `Orbit ${word} credits`], verified: [true, false] });
  });

  test('a stale If-Match is 412; a commit that did not change the deal is 404; a commit id that is not a full hex id is 400 before git sees it; nothing changes', async () => {
    const before = repoState(server.env.repo);
    const revert = (body: unknown, headers?: Record<string, string>) => admin('POST', '/api/v1/admin/deals/revert', body, headers);
    expectError(await revert({ id, commit: commits.created }, { 'If-Match': '"stale-etag"' }), 412, 'conflict');
    const otherFile = git(server.env.repo, 'rev-list', '--max-parents=0', 'HEAD').trim();
    expectError(await revert({ id, commit: otherFile }), 404, 'not_found');
    expectError(await revert({ id, commit: 'f'.repeat(40) }), 404, 'not_found');
    for (const commit of ['HEAD', 'HEAD~1', commits.created.slice(0, 12), `--output=/tmp/x`, `${commits.created}^`, `${commits.created}:content/site.yaml`, commits.created.toUpperCase(), 42]) {
      expect(expectError(await revert({ id, commit }), 400, 'validation_error').error, String(commit)).toContain('commit');
    }
    expectError(await revert({ commit: commits.created }), 400, 'validation_error');
    expectError(await revert({ id: 'd-nope0000', commit: commits.created }), 404, 'not_found');
    expectError(await revert({ id, slug: 'stripe-atlas', commit: commits.created }), 404, 'not_found');
    expectUnchanged(server.env.repo, before);
  });

  test('deleted in the admin: its history by slug ends in `deleted`; a revert by slug restores it; reverting to the deletion is 400', async () => {
    const deleted = await admin('DELETE', `/api/v1/deals?id=${id}`);
    expect(deleted.status, deleted.text).toBe(200);
    const deletion = headOf(server.env.repo);
    expectError(await admin('GET', `/api/v1/admin/deals/history?id=${id}`), 404, 'not_found');
    const page = await history('deals', `slug=${slug}`);
    expect(page.id).toBeUndefined();
    expect(page.history[0]).toMatchObject({ commit: deletion, change: 'deleted', slug, via: 'admin' });
    expect(fieldsOf(page.history[0]).title).toEqual([`Orbit ${word} credits`, undefined]);

    const before = repoState(server.env.repo);
    expectError(await admin('POST', '/api/v1/admin/deals/revert', { slug, commit: deletion }), 400, 'validation_error');
    expectError(await admin('POST', '/api/v1/admin/deals/revert', { slug, commit: commits.created }, { 'If-Match': '*' }), 412, 'conflict');
    expectUnchanged(server.env.repo, before);

    const restored = await admin('POST', '/api/v1/admin/deals/revert', { slug, commit: commits.created });
    expect(restored.status, restored.text).toBe(200);
    expect((restored.body as { deal: Deal }).deal).toMatchObject({ id, slug, value: '$1,000' });
    expect(changedFiles(server.env.repo)).toEqual([['A', `content/deals/${slug}.md`]]);
    expect((await publicDeal(slug))?.deal.id).toBe(id);
  });
});

describe("a startup listing's history and revert", () => {
  test('an admin edit and a hand commit are listed with their fields; a revert restores the first version and the public list follows', async () => {
    const word = uniqueWord();
    const created = await admin('POST', '/api/v1/admin/startups', { name: `Quill ${word}`, category: 'saas', revenue: 10000 });
    expect(created.status, created.text).toBe(200);
    const { id, slug } = (created.body as { startup: Startup }).startup;
    const first = headOf(server.env.repo);
    expect((await admin('PUT', '/api/v1/admin/startups', { id, revenue: 20000, country: 'FR' })).status).toBe(200);
    await handCommit(`startups/${slug}.md`, (text) => text.replace('forSale: true', 'forSale: false'), 'Sold, by hand');

    const page = await history('startups', `id=${id}`);
    expect(page.history.map((v) => [v.via, v.change])).toEqual([
      ['git', 'updated'],
      ['admin', 'updated'],
      ['admin', 'created'],
    ]);
    expect(page.history[0]?.fields).toEqual([{ field: 'forSale', from: true, to: false }]);
    expect(page.history[1]?.fields).toEqual([
      { field: 'revenue', from: 10000, to: 20000 },
      { field: 'country', to: 'FR' },
    ]);

    const current = await admin('GET', `/api/v1/admin/startups?id=${id}`);
    const result = await admin('POST', '/api/v1/admin/startups/revert', { id, commit: first }, { 'If-Match': current.headers.get('etag') as string });
    expect(result.status, result.text).toBe(200);
    expect((result.body as { startup: Startup; revertedTo: string }).startup).toEqual((created.body as { startup: Startup }).startup);
    expect(git(server.env.repo, 'log', '-1', '--format=%ae|%s').trim()).toBe(`${ADMIN.email}|Revert startup ${slug} to ${first.slice(0, 12)}`);
    const listed = expectStartupList((await call(server.env.url, 'GET', `/api/v1/startups?search=${word}`)).body).startups;
    expect(listed).toEqual([(created.body as { startup: Startup }).startup]);
    expect((await history('startups', `slug=${slug}&limit=1`)).history[0]?.fields).toEqual([
      { field: 'revenue', from: 20000, to: 10000 },
      { field: 'country', from: 'FR' },
      { field: 'forSale', from: false, to: true },
    ]);
  });
});

describe('who may read history and revert', () => {
  test('401 without a session, 403 for a member and for a revert from another origin; nothing changes', async () => {
    const before = repoState(server.env.repo);
    const commit = headOf(server.env.repo);
    for (const kind of ['deals', 'startups']) {
      const path = `/api/v1/admin/${kind}/history?slug=${kind === 'deals' ? 'stripe-atlas' : 'invoicenest'}`;
      expectError(await call(server.env.url, 'GET', path), 401, 'unauthorized');
      expectError(await call(server.env.url, 'GET', path, { cookie: server.memberCookie }), 403, 'forbidden');
      const body = { slug: kind === 'deals' ? 'stripe-atlas' : 'invoicenest', commit };
      expectError(await call(server.env.url, 'POST', `/api/v1/admin/${kind}/revert`, { body }), 401, 'unauthorized');
      expectError(await call(server.env.url, 'POST', `/api/v1/admin/${kind}/revert`, { body, cookie: server.memberCookie }), 403, 'forbidden');
      expectError(await call(server.env.url, 'POST', `/api/v1/admin/${kind}/revert`, { body, cookie: server.cookie, origin: 'https://evil.example' }), 403, 'forbidden');
    }
    expectUnchanged(server.env.repo, before);
  });
});
