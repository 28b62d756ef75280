/**
 * Admin writes respect the files editors wrote (issue 16, item 6), through the real server and
 * a real git repository: a one-field PUT is a one-line commit, comments and quoting survive,
 * `null` removes only its field's line, a rename moves the file unchanged, and slugs made from
 * titles are transliterated.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Deal } from '../../src/schemas/deal.ts';
import { FIXTURES } from '../helpers/server.ts';
import { ADMIN, call, changedFiles, git, login, uniqueWord, useWriteServer, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';

const TODAY = new Date().toISOString().slice(0, 10);

/** Checked today (an edit on the day of the last check leaves `lastUpdated` as it is). */
const HAND_WRITTEN = `---
# Checked with the provider on the phone; keep the groups.
"title": "Hand Written Credits"
id: d-hand0001            # never derived from the file name
provider:   'Hand Cloud'
category: cloud-credits   # a slug from categories.yaml

# Placement
status: active
featured: false           # paid placement ends in June
tags: [hand, cloud]
applicationUrl: HTTPS://Hand.example/apply
expiryDate: 2027-06-30
lastUpdated: "${TODAY}"
---
Written by hand  (two spaces kept).
`;

// The server's content: the `valid` fixture plus one hand-written file.
const work = await mkdtemp(join(tmpdir(), 'deals-keep-files-'));
const source = join(work, 'content');
await cp(join(FIXTURES, 'valid'), source, { recursive: true });
await writeFile(join(source, 'deals', 'hand-written.md'), HAND_WRITTEN);
afterAll(() => rm(work, { recursive: true, force: true }));

let env: WriteServer;
let cookie: string;

useWriteServer(
  [ADMIN],
  async (started) => {
    env = started;
    cookie = await login(env.url, ADMIN);
  },
  {},
  () => source,
);

const admin = (method: string, path: string, body?: unknown): Promise<JsonResult> => call(env.url, method, path, { cookie, body });
const fileText = (slug: string): Promise<string> => readFile(join(env.contentDir, 'deals', `${slug}.md`), 'utf8');

/** The removed and added lines of the last commit, as `git show` prints them. */
function lastCommitLines(): { removed: string[]; added: string[] } {
  const patch = git(env.repo, 'show', '--format=', '-U0', '--no-color', 'HEAD').split('\n');
  return {
    removed: patch.filter((l) => l.startsWith('-') && !l.startsWith('---')).map((l) => l.slice(1)),
    added: patch.filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1)),
  };
}

describe('PUT /api/v1/deals on a hand-written file', () => {
  test('one field changed is a one-line commit; comments, quoting and the body stay', async () => {
    const result = await admin('PUT', '/api/v1/deals', { slug: 'hand-written', title: 'Hand Written Cloud Credits' });
    expect(result.status, result.text).toBe(200);
    expect(lastCommitLines()).toEqual({ removed: ['"title": "Hand Written Credits"'], added: ['"title": "Hand Written Cloud Credits"'] });
    expect(await fileText('hand-written')).toBe(HAND_WRITTEN.replace('Hand Written Credits', 'Hand Written Cloud Credits'));
  });

  test("`null` removes only that field's line", async () => {
    const before = await fileText('hand-written');
    const result = await admin('PUT', '/api/v1/deals', { slug: 'hand-written', expiryDate: null });
    expect(result.status, result.text).toBe(200);
    expect(lastCommitLines()).toEqual({ removed: ['expiryDate: 2027-06-30'], added: [] });
    expect(await fileText('hand-written')).toBe(before.replace('expiryDate: 2027-06-30\n', ''));
  });

  test('an edit on a later day than `lastUpdated` also moves it to today (as before): one more line, in its quoting', async () => {
    expect((await admin('PUT', '/api/v1/deals', { slug: 'hand-written', lastUpdated: '2026-01-02' })).status).toBe(200);
    expect(lastCommitLines()).toEqual({ removed: [`lastUpdated: "${TODAY}"`], added: ['lastUpdated: "2026-01-02"'] });
    expect((await admin('PUT', '/api/v1/deals', { slug: 'hand-written', provider: 'Hand Cloud Inc' })).status).toBe(200);
    expect(lastCommitLines()).toEqual({ removed: ["provider:   'Hand Cloud'", 'lastUpdated: "2026-01-02"'], added: ["provider:   'Hand Cloud Inc'", `lastUpdated: "${TODAY}"`] });
  });

  test('a rename moves the file as it is (the slug is the file name): git sees a 100% rename', async () => {
    const before = await fileText('hand-written');
    const result = await admin('PUT', '/api/v1/deals', { id: 'd-hand0001', slug: 'hand-renamed' });
    expect(result.status, result.text).toBe(200);
    expect(git(env.repo, 'show', '-M', '--name-status', '--format=', 'HEAD').trim()).toBe('R100\tcontent/deals/hand-written.md\tcontent/deals/hand-renamed.md');
    expect(await fileText('hand-renamed')).toBe(before);
  });

  test('what the server serves after the edits is what the file says (links normalised, as a build reads them)', async () => {
    const deal = (await call(env.url, 'GET', '/api/v1/deals?slug=hand-renamed')).body as { deal: Deal };
    expect(deal.deal).toMatchObject({ id: 'd-hand0001', title: 'Hand Written Cloud Credits', provider: 'Hand Cloud Inc', applicationUrl: 'https://hand.example/apply', tags: ['hand', 'cloud'] });
    expect(deal.deal.expiryDate).toBeUndefined();
  });
});

describe('slugs from titles', () => {
  test('are transliterated, not stripped: the slug of a created deal keeps its letters', async () => {
    const word = uniqueWord();
    const result = await admin('POST', '/api/v1/deals', { title: `Café Crème Straße Москва ${word}`, provider: 'Crème', category: 'cloud-credits', applicationUrl: 'https://creme.example' });
    expect(result.status, result.text).toBe(200);
    const slug = `cafe-creme-strasse-moskva-${word}`;
    expect((result.body as { deal: Deal }).deal.slug).toBe(slug);
    expect(changedFiles(env.repo)).toEqual([['A', `content/deals/${slug}.md`]]);
  });
});
