/**
 * Concurrent admin writes (DESIGN "Writes: the content store": a single-writer queue, one
 * commit per write, a read after a 2xx sees it). Requests race over real HTTP; the git history
 * must stay linear and no accepted change may be lost or silently overwritten.
 */
import { describe, expect, test } from 'vitest';
import type { Deal } from '../../src/schemas/deal.ts';
import { expectDealList } from '../helpers/api-schemas.ts';
import { ADMIN, MEMBER, call, commitCount, git, login, porcelain, repoState, uniqueWord, type JsonResult, type WriteServer, useWriteServer } from '../helpers/writes-harness.ts';

let env: WriteServer;
let cookie: string;

useWriteServer([ADMIN, MEMBER], async (started) => {
  env = started;
  cookie = await login(env.url, ADMIN);
});

const admin = (method: string, path: string, body?: unknown): Promise<JsonResult> => call(env.url, method, path, { cookie, body });

async function readDeal(slug: string): Promise<Deal | undefined> {
  const result = await call(env.url, 'GET', `/api/v1/deals?slug=${slug}`);
  return result.status === 200 ? (result.body as { deal: Deal }).deal : undefined;
}

/** No merges at all: every commit but the root has exactly one parent. */
function expectLinearHistory(): void {
  expect(git(env.repo, 'rev-list', '--merges', 'HEAD').trim()).toBe('');
  // One line per commit: its hash, then its parents.
  const lines = git(env.repo, 'log', '--format=%H %P')
    .trim()
    .split('\n')
    .map((line) => line.trim().split(' '));
  const root = lines.pop();
  expect(root).toHaveLength(1);
  for (const line of lines) expect(line).toHaveLength(2);
}

describe('concurrent admin writes', () => {
  test('50 concurrent creates: all 200, 50 new deals visible, exactly 50 new commits by the admin, linear history', async () => {
    const before = repoState(env.repo);
    const batch = uniqueWord('cc');
    const slugs = Array.from({ length: 50 }, (_, i) => `${batch}-deal-${i}`);
    const results = await Promise.all(
      slugs.map((slug, i) =>
        admin('POST', '/api/v1/deals', {
          slug,
          title: `${batch} deal ${i}`,
          provider: 'Racer Inc',
          category: i % 2 ? 'cloud-credits' : 'saas-discounts',
          applicationUrl: `https://racer.example/${i}`,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(slugs.map(() => 200));
    const ids = results.map((r) => (r.body as { deal: Deal }).deal.id);
    expect(new Set(ids).size).toBe(50);

    expect(commitCount(env.repo)).toBe(before.count + 50);
    expect(git(env.repo, 'log', '--format=%ae', `${before.head}..HEAD`).trim().split('\n')).toEqual(slugs.map(() => ADMIN.email));
    const added = git(env.repo, 'log', '--name-status', '--format=', `${before.head}..HEAD`).trim().split('\n').filter(Boolean);
    expect(added.sort()).toEqual(slugs.map((s) => `A\tcontent/deals/${s}.md`).sort());
    expectLinearHistory();
    expect(porcelain(env.repo)).toBe('');

    const list = expectDealList((await call(env.url, 'GET', `/api/v1/deals?search=${batch}&status=all&limit=5000`)).body);
    expect(list.deals.map((d) => d.slug).sort()).toEqual([...slugs].sort());
    const all = expectDealList((await call(env.url, 'GET', '/api/v1/deals?status=all&scope=all')).body);
    for (const [i, slug] of slugs.entries()) expect(all.deals.find((d) => d.slug === slug)?.id).toBe(ids[i]);
  }, 90_000);

  test('concurrent creates with one slug: exactly one is 200, the others 400 conflict, and the stored deal is the one that was answered', async () => {
    const before = repoState(env.repo);
    const word = uniqueWord();
    const slug = `same-${word}`;
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        admin('POST', '/api/v1/deals', { slug, title: `Same ${word} v${i}`, provider: `Provider ${i}`, category: 'cloud-credits', applicationUrl: `https://same.example/${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) expect((r.body as { code: string }).code).toBe('conflict');
    const winner = (results.find((r) => r.status === 200)?.body as { deal: Deal }).deal;
    expect(await readDeal(slug)).toEqual(winner);
    expect(commitCount(env.repo)).toBe(before.count + 1);
  });

  test('concurrent PUTs of different fields of one deal: every 200 change survives (no lost update)', async () => {
    const changes = [{ value: 'Raced value' }, { shortDescription: 'Raced short description' }, { timeToApply: '5 minutes' }, { savings: '$999' }, { subcategory: 'raced' }];
    const results = await Promise.all(changes.map((change) => admin('PUT', '/api/v1/deals', { slug: 'heroku-credits', ...change })));
    expect(results.map((r) => r.status)).toEqual(changes.map(() => 200));
    const stored = await readDeal('heroku-credits');
    expect(stored).toMatchObject(Object.assign({}, ...changes) as Record<string, string>);
    expectLinearHistory();
  });

  test('a concurrent rename and update of one deal: the update is not lost and no second copy appears', async () => {
    const [rename, update] = await Promise.all([
      admin('PUT', '/api/v1/deals', { id: 'd-not00003', slug: 'notion-plus-renamed' }),
      admin('PUT', '/api/v1/deals', { id: 'd-not00003', value: 'Raced value for Notion' }),
    ]);
    expect(rename.status, rename.text).toBe(200);
    expect(update.status, update.text).toBe(200);
    expect(await readDeal('notion-plus')).toBeUndefined();
    expect(await readDeal('notion-plus-renamed')).toMatchObject({ id: 'd-not00003', value: 'Raced value for Notion' });
    const files = git(env.repo, 'ls-files', 'content/deals')
      .split('\n')
      .filter((f) => f.includes('notion-plus'));
    expect(files).toEqual(['content/deals/notion-plus-renamed.md']);
  });
});
