/**
 * Hostile content files (security review, issue 11, items 1 and 7) on every path that parses
 * content as a whole process runs it: `npm run check` (`scripts/check.ts`), the content build
 * (`scripts/build-content.ts`, also what `npm start` runs first) and a running server that
 * pulls pushed content on its webhook. A `---js` front matter must never run (its payload
 * would create a marker file) and a YAML alias bomb must be refused at once, with a diagnostic
 * naming file and line; the server keeps serving its last good catalog and says why in health.
 */
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { cloneFor, createRemote, gitIn } from '../helpers/git-remote.ts';
import { aliasBomb, jsPayload } from '../helpers/hostile-content.ts';
import { FIXTURES } from '../helpers/server.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Kept short on purpose: before the fix the alias bomb ran for over 15 s, then crashed. */
const BOMB_LIMIT_MS = 5_000;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hostile-content-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A copy of the valid fixture as `<work>/<name>/content`, plus `files` (path → text). */
async function contentTree(name: string, files: Record<string, string>): Promise<string> {
  const contentDir = join(work, name, 'content');
  await cp(join(FIXTURES, 'valid'), contentDir, { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(contentDir, path), text);
  return contentDir;
}

/** Run a script of this project on a content tree, as `npm run …` would. */
function run(script: string, contentDir: string, timeout = 30_000) {
  const env = { ...process.env, CONTENT_DIR: contentDir, GENERATED_DIR: join(contentDir, '..', 'generated') };
  const args = script === 'scripts/check.ts' ? [script, contentDir] : [script];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout, env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const hostileDeal = (fence: string, marker: string) => `${fence}\n${fence === '---json' ? '{ "title": "Pwned", "provider": "P" }' : jsPayload(marker)}\n---\nPwned.\n`;

const siteBomb = `name: Fixture Deals\nbaseUrl: http://localhost:4321\n${aliasBomb()}\ndescription: [*i,*i,*i,*i,*i,*i,*i,*i,*i]\n`;

describe('npm run check', () => {
  test.each(['---js', '---javascript', '---json'])('a deal opening with `%s` is refused at line 1 and never run', async (fence) => {
    const marker = join(work, `check-marker-${fence.slice(3)}`);
    const contentDir = await contentTree(`check-${fence.slice(3)}`, { 'deals/hostile.md': hostileDeal(fence, marker) });
    const { status, stdout, stderr } = run('scripts/check.ts', contentDir);
    expect(existsSync(marker)).toBe(false);
    expect(stderr).toBe('');
    expect(stdout).toBe(
      `content/deals/hostile.md:1 front matter must open with a bare \`---\` line; \`${fence}\` (${fence === '---json' ? 'another' : 'an executable'} front-matter language) is refused\n` +
        'checked 11 deals and 6 startups: 1 error(s), 0 warning(s)\n',
    );
    expect(status).toBe(1);
  });

  test('an alias bomb in a deal is refused at its first anchor, in seconds', { timeout: 3 * BOMB_LIMIT_MS }, async () => {
    const deal = `---\nid: d-bomb0001\ntitle: Bomb\n${aliasBomb()}\neligibility: [*i,*i,*i,*i,*i,*i,*i,*i,*i]\n---\nBoom.\n`;
    const contentDir = await contentTree('check-bomb', { 'deals/bomb.md': deal });
    const { status, stdout } = run('scripts/check.ts', contentDir, BOMB_LIMIT_MS);
    expect(stdout).toMatchInlineSnapshot(`
      "content/deals/bomb.md:4 front matter uses a YAML anchor (\`&a\`); anchors and aliases are not allowed, write each value out
      checked 11 deals and 6 startups: 1 error(s), 0 warning(s)
      "
    `);
    expect(status).toBe(1);
  });

  test('an alias bomb in site.yaml is refused at its first anchor, in seconds', { timeout: 3 * BOMB_LIMIT_MS }, async () => {
    const contentDir = await contentTree('check-site-bomb', { 'site.yaml': siteBomb });
    const { status, stdout } = run('scripts/check.ts', contentDir, BOMB_LIMIT_MS);
    expect(stdout.split('\n')[0]).toBe('content/site.yaml:3 uses a YAML anchor (`&a`); anchors and aliases are not allowed, write each value out');
    expect(status).toBe(1);
  });
});

describe('the content build', () => {
  test('a `---js` deal fails the build at line 1, never runs, and writes no catalog', async () => {
    const marker = join(work, 'build-marker');
    const contentDir = await contentTree('build-js', { 'deals/hostile.md': hostileDeal('---js', marker) });
    const { status, stderr } = run('scripts/build-content.ts', contentDir);
    expect(existsSync(marker)).toBe(false);
    expect(stderr).toContain('content/deals/hostile.md:1 front matter must open with a bare `---` line; `---js` (an executable front-matter language) is refused\n');
    expect(stderr).toContain('build failed: 1 error(s) in content');
    expect(status).toBe(1);
    expect(existsSync(join(contentDir, '..', 'generated', 'catalog.json'))).toBe(false);
  });

  test('an alias bomb in site.yaml fails the build in seconds', { timeout: 3 * BOMB_LIMIT_MS }, async () => {
    const contentDir = await contentTree('build-bomb', { 'site.yaml': siteBomb });
    const { status, stderr } = run('scripts/build-content.ts', contentDir, BOMB_LIMIT_MS);
    expect(stderr).toContain('content/site.yaml:3 uses a YAML anchor (`&a`)');
    expect(status).toBe(1);
  });
});

describe('a running server pulling pushed content', () => {
  const SECRET = 'hostile-content-webhook-secret';
  let remote: string;
  let editor: string;
  let server: ChildServer;
  /** What the server serves from the valid fixture, before any push. */
  let good: string[];

  beforeAll(async () => {
    const folder = join(work, 'server');
    remote = await createRemote(join(FIXTURES, 'valid'), folder);
    const clone = await cloneFor(remote, folder, 'instance');
    // No interval: each pull is the webhook's, so the test knows when it happened.
    server = await startChildServer({ ...clone, dataDir: join(folder, 'data'), env: { CONTENT_REMOTE: 'origin', CONTENT_PULL_SECONDS: '0', CONTENT_WEBHOOK_SECRET: SECRET } });
    editor = join(folder, 'editor');
    gitIn(folder, 'clone', '-q', remote, editor);
    good = await servedSlugs();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Commit the editor's changes, push them, and call the webhook (failing after `limit` ms). */
  async function pushAndHook(message: string, limit = 15_000): Promise<number> {
    gitIn(editor, 'add', '-A');
    gitIn(editor, 'commit', '-q', '-m', message);
    gitIn(editor, 'push', '-q', 'origin', 'main');
    const body = JSON.stringify({ ref: 'refs/heads/main' });
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    const response = await fetch(`${server.url}/api/v1/hooks/content`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature },
      body,
      signal: AbortSignal.timeout(limit),
    });
    return response.status;
  }

  const servedSlugs = async () => ((await (await fetch(`${server.url}/api/v1/deals?status=all&limit=5000`)).json()) as { deals: { slug: string }[] }).deals.map((d) => d.slug).sort();
  const contentProblem = async () => (await (await fetch(`${server.url}/api/v1/health`)).json()) as { problems: string[]; content: { problem?: string } };

  test('a pushed `---js` deal never runs; the last good catalog stays and health says why', async () => {
    const marker = join(work, 'server-marker');
    await writeFile(join(editor, 'content', 'deals', 'hostile.md'), hostileDeal('---js', marker));
    expect(await pushAndHook('A hostile deal')).toBe(200);

    expect(existsSync(marker)).toBe(false);
    expect(await servedSlugs()).toEqual(good);
    const health = await contentProblem();
    expect(health.problems).toContain('content_invalid');
    expect(health.content.problem).toContain('content/deals/hostile.md:1 front matter must open with a bare `---` line; `---js` (an executable front-matter language) is refused');
    expect(server.errors().some((line) => line.includes('content_invalid') && line.includes('hostile.md:1'))).toBe(true);
  });

  test('a pushed alias bomb in site.yaml is refused in seconds; the last good catalog stays', { timeout: 3 * BOMB_LIMIT_MS }, async () => {
    await rm(join(editor, 'content', 'deals', 'hostile.md'));
    await writeFile(join(editor, 'content', 'site.yaml'), siteBomb);
    expect(await pushAndHook('An alias bomb', BOMB_LIMIT_MS)).toBe(200);

    expect(await servedSlugs()).toEqual(good);
    const health = await contentProblem();
    expect(health.problems).toContain('content_invalid');
    expect(health.content.problem).toContain('content/site.yaml:3 uses a YAML anchor (`&a`)');
  });

  test('a fix is picked up: the problem clears', async () => {
    await cp(join(FIXTURES, 'valid', 'site.yaml'), join(editor, 'content', 'site.yaml'));
    expect(await pushAndHook('Fix site.yaml')).toBe(200);
    const health = await contentProblem();
    expect(health.content.problem).toBeUndefined();
    expect(await servedSlugs()).toEqual(good);
  });
});
