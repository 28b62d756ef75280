/**
 * When the content store cannot take a write, the answer is 503 service_unavailable with
 * Retry-After, and nothing is left behind: no file, no temp file, nothing staged, HEAD and the
 * served catalog unchanged (DESIGN "Writes: the content store"). Submissions live in the
 * private store (docs/submissions.md): a broken content store does not stop them, a broken
 * private store answers 503 (SPEC 503 on submit-deal).
 *
 * Tests run as root, where `chmod a-w` stops nothing, so the store is broken in ways root
 * cannot write through: the repository's `.git` moved away, a stale `index.lock` (git cannot
 * stage), and a stale ref lock (git stages, then cannot move the branch: the commit fails
 * after the file was written and added).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Deal } from '../../src/schemas/deal.ts';
import { ADMIN, call, expectError, expectUnchanged, git, login, repoState, startWriteServer, takeErrors, uniqueWord, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';

let env: WriteServer;
let cookie: string;

beforeAll(async () => {
  env = await startWriteServer([ADMIN]);
  cookie = await login(env.url, ADMIN);
});
afterAll(async () => {
  await env.stop();
});
afterEach(() => {
  // Only the expected store_unavailable lines may have been logged; never an unhandled error.
  expect(takeErrors(env.server).filter((line) => !line.includes('"store_unavailable"'))).toEqual([]);
});

interface Breakage {
  name: string;
  break: () => Promise<void>;
  repair: () => Promise<void>;
}

const gitDir = (): string => join(env.repo, '.git');
const breakages: Breakage[] = [
  {
    name: '.git moved away',
    break: () => rename(gitDir(), join(env.repo, '.git-away')),
    repair: () => rename(join(env.repo, '.git-away'), gitDir()),
  },
  {
    name: 'a stale .git/index.lock',
    break: () => writeFile(join(gitDir(), 'index.lock'), ''),
    repair: () => rm(join(gitDir(), 'index.lock')),
  },
  {
    name: 'a stale branch ref lock (the commit fails after git add)',
    break: () => writeFile(join(gitDir(), 'refs', 'heads', 'main.lock'), ''),
    repair: () => rm(join(gitDir(), 'refs', 'heads', 'main.lock')),
  },
];

/** Every file under content/, with its text, and any temp files anywhere in it. */
function contentSnapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(join(dir, entry.name), path);
      else files.set(path, readFileSync(join(dir, entry.name), 'utf8'));
    }
  };
  walk(env.contentDir, '');
  return files;
}

function expect503(result: JsonResult): void {
  expectError(result, 503, 'service_unavailable');
  expect(Number(result.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** Run `write` against a broken store: 503, then (once repaired) nothing changed anywhere. */
async function expectRefusedCleanly(breakage: Breakage, write: () => Promise<JsonResult>): Promise<void> {
  const before = repoState(env.repo);
  const files = contentSnapshot();
  await breakage.break();
  let result: JsonResult;
  try {
    result = await write();
  } finally {
    await breakage.repair();
  }
  expect503(result);
  expect(contentSnapshot()).toEqual(files);
  expectUnchanged(env.repo, before);
  expect(git(env.repo, 'diff', '--cached', '--name-only')).toBe('');
  expect(existsSync(join(gitDir(), 'deals-store-journal.json'))).toBe(false);
  expect(env.server.errors.length).toBeGreaterThan(0);
}

const validSubmission = (word: string) => ({
  company_name: `Broken ${word}`,
  website_url: 'https://broken.example',
  benefit_description: 'Credits offered while the store is broken.',
  category: 'saas',
  deal_value: '$1',
  redemption_link: `https://broken.example/${word}`,
});

const admin = (method: string, path: string, body?: unknown): Promise<JsonResult> => call(env.url, method, path, { cookie, body });

async function readDeal(slug: string): Promise<Deal | undefined> {
  const result = await call(env.url, 'GET', `/api/v1/deals?slug=${slug}`);
  return result.status === 200 ? (result.body as { deal: Deal }).deal : undefined;
}

describe('POST /api/v1/submit-deal and the content store', () => {
  for (const breakage of breakages) {
    test(`${breakage.name}: submissions do not touch the content store, so they are still accepted (201) and nothing changes in it`, async () => {
      const word = uniqueWord();
      const before = repoState(env.repo);
      const files = contentSnapshot();
      await breakage.break();
      let result: JsonResult;
      try {
        result = await call(env.url, 'POST', '/api/v1/submit-deal', { body: validSubmission(word) });
      } finally {
        await breakage.repair();
      }
      expect(result.status, result.text).toBe(201);
      expect(contentSnapshot()).toEqual(files);
      expectUnchanged(env.repo, before);
    });
  }
});

describe('POST /api/v1/submit-deal on a broken private store (DATA_DIR/submissions)', () => {
  const pending = (): string => join(env.dataDir, 'submissions', 'pending');
  test('the pending folder unusable (a file in its place; root writes through chmod): 503 with Retry-After, nothing stored; after repair the same submission is accepted', async () => {
    const word = uniqueWord();
    expect((await call(env.url, 'POST', '/api/v1/submit-deal', { body: validSubmission(`${word}first`) })).status).toBe(201);
    const stored = readdirSync(pending()).sort();
    await rename(pending(), `${pending()}.away`);
    await writeFile(pending(), 'not a folder');
    let result: JsonResult;
    try {
      result = await call(env.url, 'POST', '/api/v1/submit-deal', { body: validSubmission(word) });
    } finally {
      await rm(pending());
      await rename(`${pending()}.away`, pending());
    }
    expect503(result);
    expect(readdirSync(pending()).sort()).toEqual(stored);
    expect(takeErrors(env.server).some((line) => line.includes('"submission_store_unavailable"'))).toBe(true);
    const after = await call(env.url, 'POST', '/api/v1/submit-deal', { body: validSubmission(word) });
    expect(after.status, after.text).toBe(201);
    // Not a "duplicate" of the refused attempt: it is really stored now.
    expect(after.body).toEqual({ success: true, id: (after.body as { id: string }).id });
    expect(existsSync(join(pending(), `${(after.body as { id: string }).id}.json`))).toBe(true);
  });
});

describe('admin deal writes on a broken store', () => {
  for (const breakage of breakages) {
    test(`${breakage.name}: POST, PUT, rename and DELETE are 503, leave no trace, and the served catalog is unchanged`, async () => {
      const word = uniqueWord();
      const slug = `broken-${word}`;
      await expectRefusedCleanly(breakage, () =>
        admin('POST', '/api/v1/deals', { slug, title: `Broken ${word}`, provider: 'Broken', category: 'cloud-credits', applicationUrl: 'https://broken.example' }),
      );
      expect(await readDeal(slug)).toBeUndefined();

      const aws = await readDeal('aws-activate');
      await expectRefusedCleanly(breakage, () => admin('PUT', '/api/v1/deals', { slug: 'aws-activate', value: `Broken ${word}` }));
      expect(await readDeal('aws-activate')).toEqual(aws);

      await expectRefusedCleanly(breakage, () => admin('PUT', '/api/v1/deals', { id: 'd-aws00001', slug: `aws-${word}` }));
      expect(await readDeal('aws-activate')).toEqual(aws);
      expect(await readDeal(`aws-${word}`)).toBeUndefined();

      await expectRefusedCleanly(breakage, () => admin('DELETE', '/api/v1/deals?ids=d-aws00001,d-str00005'));
      expect(await readDeal('aws-activate')).toEqual(aws);
      expect((await readDeal('stripe-atlas'))?.id).toBe('d-str00005');
    });
  }

  test('after repair, writes work again', async () => {
    const result = await admin('PUT', '/api/v1/deals', { slug: 'aws-activate', value: 'Repaired' });
    expect(result.status, result.text).toBe(200);
    expect((await readDeal('aws-activate'))?.value).toBe('Repaired');
  });
});
