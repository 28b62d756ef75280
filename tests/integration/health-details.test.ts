/**
 * What /api/v1/health tells whom (issue 11, item 10): anyone gets the status and short problem
 * codes (and the counts the API shows anyway); file paths, git's error text and the content
 * remote (host, path, maybe credentials) go only to a client on this machine or an admin
 * session. Behind a trusted proxy the client is the one the proxy names, so the test forges a
 * remote client with `X-Forwarded-For`. The content remote here is unreachable, so health has
 * a pull failure to report.
 */
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { ADMIN, MEMBER, call, login, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

/** A remote whose URL must never be public: credentials, a private host and path (port 9: refused at once). */
const REMOTE = 'http://deploy:s3cret-token@127.0.0.1:9/private-org/content.git';
const PUBLIC_FIELDS = ['catalogVersion', 'deals', 'problems', 'startups', 'status', 'success'];

let site: WriteServer;

beforeAll(async () => {
  site = await startWriteServer([ADMIN, MEMBER], { TRUST_PROXY_HOPS: '1', CONTENT_REMOTE: REMOTE, CONTENT_PULL_SECONDS: '3600' });
  // The first pull runs right after start; wait until health reports its failure.
  for (let i = 0; i < 100; i++) {
    const health = await call(site.url, 'GET', '/api/v1/health');
    if ((health.body as { content?: { problem?: string } }).content?.problem) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('health never reported the failed pull');
});

afterAll(async () => {
  await site?.stop();
});

afterEach(() => {
  // The failed pull is logged once as an error; it is this test's premise, not a fault.
  expect(takeErrors(site.server).filter((line) => !line.includes('"event":"content_pull_failed"'))).toEqual([]);
});

const health = (forwardedFor: string, cookie?: string) => call(site.url, 'GET', '/api/v1/health', { headers: { 'X-Forwarded-For': forwardedFor }, ...(cookie ? { cookie } : {}) });

describe('health for the public', () => {
  test('a remote client gets the status, problem codes and counts: no paths, no git output, no remote', async () => {
    const answer = await health('203.0.113.9');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(answer.body as object).sort()).toEqual(PUBLIC_FIELDS);
    expect(answer.body).toEqual({
      success: true,
      status: 'degraded',
      problems: ['content_pull_failed'],
      catalogVersion: expect.stringMatching(/^\w+$/),
      deals: expect.any(Number),
      startups: expect.any(Number),
    });
    for (const secret of ['s3cret', 'deploy', '127.0.0.1', 'private-org', 'content.git', 'fatal', 'pull failed', site.contentDir, tmpdir()]) {
      expect(answer.text).not.toContain(secret);
    }
  });

  test('a member session is no admin: the public answer', async () => {
    const answer = await health('203.0.113.9', await login(site.url, MEMBER));
    expect(Object.keys(answer.body as object).sort()).toEqual(PUBLIC_FIELDS);
  });
});

describe('health in detail', () => {
  const expectDetails = (body: unknown): void => {
    expect(body).toMatchObject({
      success: true,
      status: 'degraded',
      problems: ['content_pull_failed'],
      store: { writable: true },
      content: { remote: REMOTE, problem: expect.stringMatching(/^pull failed: /) },
      redis: 'disabled',
      uptimeSeconds: expect.any(Number),
    });
  };

  test('for a client on this machine (forwarded by the proxy as loopback)', async () => {
    expectDetails((await health('127.0.0.1')).body);
  });

  test('for an admin session from anywhere', async () => {
    expectDetails((await health('203.0.113.9', await login(site.url, ADMIN))).body);
  });
});

describe('health under a flood', () => {
  test('concurrent requests share one read of the store (one git process), and a later request reads it afresh', async () => {
    const reads = vi.spyOn(site.server.deps.store, 'status');
    try {
      const answers = await Promise.all(Array.from({ length: 16 }, () => health('203.0.113.9')));
      for (const answer of answers) expect(answer.status).toBe(200);
      const shared = reads.mock.calls.length;
      expect(shared).toBeGreaterThanOrEqual(1);
      expect(shared).toBeLessThan(8);
      expect((await health('203.0.113.9')).status).toBe(200);
      expect(reads.mock.calls.length).toBe(shared + 1);
    } finally {
      reads.mockRestore();
    }
  });
});
