/**
 * Several instances (issue 6, DESIGN "Growing past one machine"): two server processes on
 * 127.0.0.1, each with its own clone of one bare git remote, sharing a real redis-server.
 * Writes through either instance are pushed (rebased when the other got there first) and
 * seen by both; the submission limit holds across them (submissions themselves are shared
 * through PostgreSQL: submissions-shared.test.ts); a Redis crash degrades to per-instance
 * limits without a 5xx; malformed content pushed to the remote leaves both
 * serving the last good catalog, and a fix is picked up.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { cloneFor, createRemote, gitIn } from '../helpers/git-remote.ts';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.ts';
import { FIXTURES } from '../helpers/server.ts';
import { ADMIN, addAccount, call, callFrom, eventually, login, submissionBody, uniqueWord, type JsonResult } from '../helpers/writes-harness.ts';

const WEBHOOK_SECRET = 'a-shared-webhook-secret';

let work: string;
let remote: string;
let redis: RedisServer;
let a: ChildServer;
let b: ChildServer;
let cookie: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-instances-'));
  remote = await createRemote(join(FIXTURES, 'valid'), work);
  redis = await startRedisServer();
  const dataDir = join(work, 'data');
  addAccount(dataDir, ADMIN);
  const env = {
    REDIS_URL: redis.url,
    CONTENT_REMOTE: 'origin',
    CONTENT_PULL_SECONDS: '1',
    CONTENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SESSION_SECRET: 'one-secret-for-every-instance-32-bytes-or-more',
  };
  const [cloneA, cloneB] = await Promise.all([cloneFor(remote, work, 'a'), cloneFor(remote, work, 'b')]);
  [a, b] = await Promise.all([startChildServer({ ...cloneA, dataDir, env }), startChildServer({ ...cloneB, dataDir, env })]);
  // Signed in on A; the same cookie works on B (one SESSION_SECRET, no shared session store).
  cookie = await login(a.url, ADMIN);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  await rm(work, { recursive: true, force: true });
});

function newDeal(word: string) {
  return { title: `Shared ${word} credits`, provider: `Shared ${word}`, category: 'cloud-credits', applicationUrl: `https://${word}.example/apply` };
}

const createOn = (server: ChildServer, word: string): Promise<JsonResult> => call(server.url, 'POST', '/api/v1/deals', { cookie, body: newDeal(word) });
const dealOn = async (server: ChildServer, slug: string): Promise<number> => (await fetch(`${server.url}/api/v1/deals?slug=${slug}`)).status;

const remoteLog = (): string[] => gitIn(remote, 'log', '--format=%H %P', 'main').trim().split('\n');

describe('writes through either instance', () => {
  test('a deal created on A is served by B after B pulls, and the reverse', async () => {
    const first = uniqueWord('ab');
    expect((await createOn(a, first)).status).toBe(200);
    expect(await dealOn(a, `shared-${first}-credits`)).toBe(200);
    await eventually(async () => (await dealOn(b, `shared-${first}-credits`)) === 200);

    const second = uniqueWord('ba');
    const created = await call(b.url, 'POST', '/api/v1/deals', { cookie, body: newDeal(second) });
    expect(created.status, created.text).toBe(200);
    await eventually(async () => (await dealOn(a, `shared-${second}-credits`)) === 200);
    // Each acknowledged write is on the remote, authored by the admin.
    expect(gitIn(remote, 'log', '-2', '--format=%ae %s', 'main')).toContain(ADMIN.email);
  });

  test('the webhook makes an instance pull at once; a bad signature is refused', async () => {
    const word = uniqueWord('hook');
    // Pushed by an editor straight to the remote, not through any instance.
    const editor = join(work, `editor-${word}`);
    gitIn(work, 'clone', '-q', remote, editor);
    await writeFile(
      join(editor, 'content', 'deals', `hooked-${word}.md`),
      `---\nid: d-${word}\ntitle: Hooked ${word}\nprovider: Hook Co\ncategory: cloud-credits\nstatus: active\napplicationUrl: https://hook.example\n---\nPushed by an editor.\n`,
    );
    gitIn(editor, 'add', '-A');
    gitIn(editor, 'commit', '-q', '-m', 'Editor adds a deal');
    gitIn(editor, 'push', '-q', 'origin', 'main');

    const body = JSON.stringify({ ref: 'refs/heads/main' });
    const forged = await call(a.url, 'POST', '/api/v1/hooks/content', { rawBody: body, headers: { 'X-Hub-Signature-256': 'sha256=00' } });
    expect(forged.status).toBe(401);
    const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    const hooked = await call(a.url, 'POST', '/api/v1/hooks/content', { rawBody: body, headers: { 'X-Hub-Signature-256': signature } });
    expect(hooked.status, hooked.text).toBe(200);
    // Served as soon as the webhook answered: no waiting for the interval.
    expect(await dealOn(a, `hooked-${word}`)).toBe(200);
  });

  test('concurrent writes on both instances: all acknowledged, all served by both, one linear history', async () => {
    const before = remoteLog().length;
    const words = Array.from({ length: 16 }, (_, i) => uniqueWord(`c${i}x`));
    const results = await Promise.all(words.map((word, i) => createOn(i % 2 ? a : b, word)));
    expect(
      results.map((r) => r.status),
      [...a.errors(), ...b.errors()].join('\n'),
    ).toEqual(words.map(() => 200));
    const log = remoteLog();
    expect(log.length).toBe(before + words.length);
    // Linear: no merge commits (each line is "commit parent").
    expect(log.every((line) => line.split(' ').length <= 2)).toBe(true);
    for (const server of [a, b]) {
      await eventually(async () => (await Promise.all(words.map((w) => dealOn(server, `shared-${w}-credits`)))).every((s) => s === 200));
    }
  });

  test('a deal edited on B after it was created on A keeps its id; the edit reaches A', async () => {
    const word = uniqueWord('edit');
    const created = (await createOn(a, word)).body as { deal: { id: string; slug: string } };
    await eventually(async () => (await dealOn(b, created.deal.slug)) === 200);
    const edited = await call(b.url, 'PUT', '/api/v1/deals', { cookie, body: { slug: created.deal.slug, title: `Edited ${word}` } });
    expect(edited.status, edited.text).toBe(200);
    await eventually(async () => {
      const answer = (await (await fetch(`${a.url}/api/v1/deals?slug=${created.deal.slug}`)).json()) as { deal: { id: string; title: string } };
      return answer.deal.title === `Edited ${word}` && answer.deal.id === created.deal.id;
    });
    expect(a.errors()).toEqual([]);
    expect(b.errors()).toEqual([]);
  });
});

describe('shared rate limits in Redis', () => {
  const submission = (n: number) => submissionBody('Limit', n);

  test('the 5-per-hour submission limit counts submissions to both instances', async () => {
    const address = '127.0.0.77';
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) statuses.push((await callFrom(address, n % 2 ? b.url : a.url, 'POST', '/api/v1/submit-deal', { body: submission(n) })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const sixthOnA = await callFrom(address, a.url, 'POST', '/api/v1/submit-deal', { body: submission(6) });
    const sixthOnB = await callFrom(address, b.url, 'POST', '/api/v1/submit-deal', { body: submission(7) });
    expect([sixthOnA.status, sixthOnB.status]).toEqual([429, 429]);
    expect(Number(sixthOnB.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('a parallel burst of 10 submissions split over both instances: exactly 5 accepted (one reservation per place, in Redis)', async () => {
    const address = '127.0.0.79';
    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => callFrom(address, n % 2 ? b.url : a.url, 'POST', '/api/v1/submit-deal', { body: submission(200 + n) })));
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 201),
      JSON.stringify(statuses),
    ).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  test('a parallel burst of 20 wrong passwords for one account and address split over both instances: exactly 5 evaluated', async () => {
    const address = '127.0.0.80';
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) => callFrom(address, n % 2 ? b.url : a.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: `wrong-${n}-password` } })),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 401),
      JSON.stringify(statuses),
    ).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  test('Redis killed mid-run: both instances keep answering (per-instance limits), say so in health and the log', async () => {
    await redis.kill();
    const address = '127.0.0.78';
    for (const server of [a, b]) {
      const reads = await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.url}/api/v1/deals?limit=5`)));
      expect(reads.map((r) => r.status).every((s) => s === 200)).toBe(true);
      const submitted = await callFrom(address, server.url, 'POST', '/api/v1/submit-deal', { body: submission(100) });
      expect(submitted.status, submitted.text).toBe(201);
    }
    // The limit still bites, per instance: four more on A fill its own budget of five.
    for (let n = 101; n < 105; n += 1) expect((await callFrom(address, a.url, 'POST', '/api/v1/submit-deal', { body: submission(n) })).status).toBe(201);
    expect((await callFrom(address, a.url, 'POST', '/api/v1/submit-deal', { body: submission(105) })).status).toBe(429);
    await eventually(async () => {
      const health = (await (await fetch(`${a.url}/api/v1/health`)).json()) as { redis: string; status: string };
      return health.redis === 'down' && health.status === 'degraded';
    });
    expect(a.output.some((line) => line.includes('redis_unavailable'))).toBe(true);
    expect(a.errors().filter((line) => !line.includes('redis'))).toEqual([]);
    // Redis comes back on the same port: the instances reconnect.
    redis = await startRedisServer(redis.port);
    await eventually(async () => ((await (await fetch(`${a.url}/api/v1/health`)).json()) as { redis: string }).redis === 'ok', 15_000);
  });
});

/** What an instance serves: its catalog version and how many deals of every status it holds. */
async function servedCatalog(server: ChildServer): Promise<{ version: string; total: number }> {
  const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as { catalogVersion: string };
  const list = (await (await fetch(`${server.url}/api/v1/deals?limit=1&status=all&scope=all`)).json()) as { stats: { total: number } };
  return { version: health.catalogVersion, total: list.stats.total };
}

describe('malformed content pushed to the remote', () => {
  test('both instances keep serving the last good catalog and report it; a fix is picked up', async () => {
    const editor = join(work, 'editor-bad');
    gitIn(work, 'clone', '-q', remote, editor);
    const file = join(editor, 'content', 'deals', 'broken-deal.md');
    await writeFile(file, '---\ntitle: [unclosed\nprovider: Broken\n---\nbody\n');
    gitIn(editor, 'add', '-A');
    gitIn(editor, 'commit', '-q', '-m', 'A broken deal');
    gitIn(editor, 'push', '-q', 'origin', 'main');
    const before = await Promise.all([a, b].map(servedCatalog));

    for (const server of [a, b]) {
      await eventually(async () => {
        const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as { content: { problem?: string } };
        return health.content.problem?.includes('broken-deal.md') ?? false;
      });
      expect(server.errors().some((line) => line.includes('content_invalid') && line.includes('broken-deal.md'))).toBe(true);
    }
    // Still serving, the same catalog as before.
    const after = await Promise.all([a, b].map(servedCatalog));
    expect(after).toEqual(before);

    await writeFile(file, '---\nid: d-fixed001\ntitle: Fixed deal\nprovider: Broken\ncategory: cloud-credits\nstatus: active\napplicationUrl: https://fixed.example\n---\nFixed.\n');
    gitIn(editor, 'commit', '-q', '-am', 'Fix the broken deal');
    gitIn(editor, 'push', '-q', 'origin', 'main');
    for (const server of [a, b]) {
      await eventually(async () => (await dealOn(server, 'broken-deal')) === 200);
      const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as { content: { problem?: string } };
      expect(health.content.problem).toBeUndefined();
    }
  });
});

describe('the git remote unreachable', () => {
  test('writes answer 503 and leave nothing behind, health says why, and all recovers when it is back', async () => {
    const away = `${remote}.away`;
    await rename(remote, away);
    try {
      const before = gitIn(join(work, 'a'), 'rev-parse', 'HEAD');
      const refused = await createOn(a, uniqueWord('down'));
      expect(refused.status, refused.text).toBe(503);
      expect((refused.body as { code: string }).code).toBe('service_unavailable');
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(gitIn(join(work, 'a'), 'rev-parse', 'HEAD')).toBe(before);
      expect(gitIn(join(work, 'a'), 'status', '--porcelain', '--untracked-files=all')).toBe('');
      await eventually(async () => {
        const health = (await (await fetch(`${b.url}/api/v1/health`)).json()) as { status: string; content: { problem?: string } };
        return health.status === 'degraded' && (health.content.problem?.startsWith('pull failed') ?? false);
      });
      // Reads go on from the catalog each instance has.
      expect((await fetch(`${b.url}/api/v1/deals?limit=1`)).status).toBe(200);
    } finally {
      await rename(away, remote);
    }
    const word = uniqueWord('back');
    expect((await createOn(a, word)).status).toBe(200);
    await eventually(async () => (await dealOn(b, `shared-${word}-credits`)) === 200);
    await eventually(async () => ((await (await fetch(`${b.url}/api/v1/health`)).json()) as { content: { problem?: string } }).content.problem === undefined);
    // One error line per outage, not one per pull.
    expect(b.errors().filter((line) => line.includes('content_pull_failed')).length).toBe(1);
  });
});
