/**
 * Limits hold under parallel bursts and cannot be dodged by changing IPv6 address inside one
 * network (SECURITY.md "availability"), on the real server behind a trusted proxy
 * (TRUST_PROXY_HOPS=1, so each request names its client in X-Forwarded-For). And a server never
 * starts with a session secret an attacker could guess.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadSessionSecret } from '../../functions/auth/accounts.ts';
import { startServer } from '../../functions/server.ts';
import { loadConfig } from '../../functions/config.ts';
import { call, uniqueWord, useWriteServer, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';

let env: WriteServer;
useWriteServer(
  [],
  (started) => {
    env = started;
  },
  { TRUST_PROXY_HOPS: '1' },
);

function validSubmission(): Record<string, unknown> {
  const word = uniqueWord();
  return {
    company_name: `Burst ${word}`,
    website_url: 'https://burst.example',
    benefit_description: 'Ten thousand dollars of cloud credits for seed-stage startups.',
    category: 'cloud',
    deal_value: '$10,000 in credits',
    redemption_link: `https://burst.example/startups/${word}`,
  };
}

const submitAs = (client: string, body: unknown = validSubmission()): Promise<JsonResult> =>
  call(env.url, 'POST', '/api/v1/submit-deal', { body, origin: null, headers: { 'X-Forwarded-For': client } });

describe('POST /api/v1/submit-deal under a parallel burst', () => {
  test('10 valid submissions at once from one address: exactly 5 accepted (201), 5 refused (429)', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => submitAs('203.0.113.10')));
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 201),
      JSON.stringify(statuses),
    ).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  test('invalid submissions in the same burst give their places back', async () => {
    const invalid = { ...validSubmission(), category: 'food' };
    const results = await Promise.all([...Array.from({ length: 5 }, () => submitAs('203.0.113.11', invalid)), ...Array.from({ length: 5 }, () => submitAs('203.0.113.11'))]);
    expect(results.filter((r) => r.status === 400)).toHaveLength(5);
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect((await submitAs('203.0.113.11')).status).toBe(429);
  });
});

describe('IPv6 clients share one budget per /64', () => {
  test('five addresses in one /64 use up one budget; another /64 has its own', async () => {
    for (let i = 1; i <= 5; i++) expect((await submitAs(`2001:db8:aa:1::${i}`)).status).toBe(201);
    expect((await submitAs('2001:db8:aa:1:ffff:1:2:3')).status).toBe(429);
    expect((await submitAs('2001:db8:aa:2::1')).status).toBe(201);
  });
});

describe('the session secret', () => {
  test('an empty secret file (a crash while it was first written) stops the start instead of signing with an empty key', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deals-secret-'));
    try {
      await writeFile(join(dataDir, 'session-secret'), '');
      await expect(loadSessionSecret(dataDir, undefined)).rejects.toThrow(/has 0 bytes; at least 32/);
      await expect(startServer(loadConfig({ DATA_DIR: dataDir, PORT: '0' }))).rejects.toThrow(/has 0 bytes; at least 32/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('a SESSION_SECRET under 32 bytes is refused', async () => {
    await expect(loadSessionSecret('/nonexistent', 'short-secret')).rejects.toThrow(/SESSION_SECRET has 12 bytes/);
  });

  test('a generated secret is created whole, owner-only, and the same for parallel starts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deals-secret-'));
    try {
      const secrets = await Promise.all(Array.from({ length: 8 }, () => loadSessionSecret(dataDir, undefined)));
      expect(new Set(secrets).size).toBe(1);
      expect(Buffer.byteLength(secrets[0] as string)).toBeGreaterThanOrEqual(32);
      expect((await readFile(join(dataDir, 'session-secret'), 'utf8')).trim()).toBe(secrets[0]);
      expect((await stat(join(dataDir, 'session-secret'))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
