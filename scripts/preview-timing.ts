/**
 * `node scripts/preview-timing.ts [rounds]`: how long `npm run dev` takes from a save to the
 * updated page, measured in real Chromium on the starter catalog. It runs `scripts/dev.ts` on
 * a git copy of `content/` in `.e2e/preview-timing/` (built there once, at its own port,
 * `PREVIEW_PORT`, default 4391), opens a page, saves a content file as an editor would, and
 * times until the open page shows the change: a deal's page, the deals list, a startup's page.
 * Then a save that does not build: timed until its error shows over the page, and the fix
 * until the error is gone and the page shows the fixed file. Every edited file gets its text
 * and modification time back, so the next run needs no build.
 */
import { execFileSync, fork } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.e2e', 'preview-timing');
const CONTENT = join(WORK, 'repo', 'content');
const ROUNDS = Number(process.argv[2] ?? 5);
const PORT = process.env.PREVIEW_PORT ?? '4391';

interface Case {
  name: string;
  page: string;
  file: string;
  /** The field line the edit rewrites, and where the new value shows on the page. */
  field: 'title' | 'name';
  shows: (page: Page, value: string) => Promise<void>;
}

const CASES: Case[] = [
  { name: "a deal's page", page: '/deals/stripe-atlas/', file: 'deals/stripe-atlas.md', field: 'title', shows: (page, value) => page.locator('h1', { hasText: value }).waitFor() },
  { name: 'the deals list', page: '/deals/', file: 'deals/notion-for-startups.md', field: 'title', shows: (page, value) => page.getByText(value).first().waitFor() },
  { name: "a startup's page", page: '/startups/campervan-atlas/', file: 'startups/campervan-atlas.md', field: 'name', shows: (page, value) => page.locator('h1', { hasText: value }).waitFor() },
];

await prepareContent();
const dev = await startDev();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const results: { name: string; ms: number[] }[] = [];
try {
  for (const item of CASES) results.push({ name: item.name, ms: await measure(item) });
  results.push(...(await measureBadSave(CASES[0] as Case)));
} finally {
  await browser.close();
  dev.kill('SIGTERM');
}
console.log(`save → updated page in Chromium, ${ROUNDS} saves each (ms):`);
for (const { name, ms } of results) {
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(`  ${name.padEnd(18)} median ${String(sorted[Math.floor(sorted.length / 2)]).padStart(4)}  max ${String(sorted.at(-1)).padStart(4)}  (${ms.join(', ')})`);
}

// --- internal ---

/** Open the page, then save the file `ROUNDS` times and time each until the page shows it. */
function measure(item: Case): Promise<number[]> {
  return onOpenPage(item, async (page, save) => {
    const times: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const value = `Preview ${round} ${Date.now().toString(36)}`;
      const started = performance.now();
      await save((text) => withField(text, item.field, value));
      await item.shows(page, value);
      times.push(Math.round(performance.now() - started));
      // Let the reload settle (its event stream reconnects) before the next save.
      await page.waitForResponse((response) => response.url().endsWith('/_dev/events'), { timeout: 5_000 }).catch(() => undefined);
    }
    return times;
  });
}

/** A save with an unknown category: until the overlay names the file; the fix: until the overlay is gone and the page shows it. */
function measureBadSave(item: Case): Promise<{ name: string; ms: number[] }[]> {
  return onOpenPage(item, async (page, save) => {
    const shown: number[] = [];
    const fixed: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      let started = performance.now();
      await save((text) => withField(text, 'category', 'sass-discounts'));
      await page.locator('#dev-problem', { hasText: `content/${item.file}` }).waitFor();
      shown.push(Math.round(performance.now() - started));
      const value = `Fixed ${round} ${Date.now().toString(36)}`;
      started = performance.now();
      await save((text) => withField(text, item.field, value));
      await item.shows(page, value);
      await page.locator('#dev-problem').waitFor({ state: 'detached' });
      fixed.push(Math.round(performance.now() - started));
    }
    return [
      { name: 'error over a page', ms: shown },
      { name: 'its fix', ms: fixed },
    ];
  });
}

/**
 * Open the case's page (once its event stream is connected) and run `task`, whose `save`
 * rewrites the case's file from its original text; the file gets its text and time back after.
 */
async function onOpenPage<T>(item: Case, task: (page: Page, save: (edit: (original: string) => string) => Promise<void>) => Promise<T>): Promise<T> {
  const page = await browser.newPage();
  const path = join(CONTENT, item.file);
  const original = await readFile(path, 'utf8');
  const { mtime } = await stat(path);
  try {
    const connected = page.waitForResponse((response) => response.url().endsWith('/_dev/events'));
    await page.goto(`http://127.0.0.1:${PORT}${item.page}`);
    await connected;
    return await task(page, (edit) => writeFile(path, edit(original)));
  } finally {
    await writeFile(path, original);
    await utimes(path, mtime, mtime);
    await page.close();
  }
}

/** The text with one front-matter line set to `value`. */
function withField(text: string, field: string, value: string): string {
  return text.replace(new RegExp(`^${field}: .*$`, 'm'), `${field}: ${value}`);
}

/** A git copy of the starter catalog, made once (the build in WORK stays current while it is unchanged). */
async function prepareContent(): Promise<void> {
  if (existsSync(CONTENT)) return;
  await mkdir(join(WORK, 'repo'), { recursive: true });
  await cp(join(ROOT, 'content'), CONTENT, { recursive: true, preserveTimestamps: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Preview', '-c', 'user.email=preview@localhost', ...args], { cwd: join(WORK, 'repo'), stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Starter catalog');
}

/** `scripts/dev.ts` on the copy; resolves once it listens (after a build, the first time). Its output goes to WORK/dev.log. */
async function startDev(): Promise<ReturnType<typeof fork>> {
  const log = createWriteStream(join(WORK, 'dev.log'));
  const child = fork(join(ROOT, 'scripts', 'dev.ts'), [], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, CONTENT_DIR: CONTENT, GENERATED_DIR: join(WORK, 'generated'), DIST_DIR: join(WORK, 'dist'), DATA_DIR: join(WORK, 'data'), PORT, HOST: '127.0.0.1', LOGO_FETCH: 'off' },
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  process.once('exit', () => child.kill('SIGKILL'));
  console.log(`starting npm run dev on port ${PORT} (a build the first time; output in ${join(WORK, 'dev.log')})...`);
  await new Promise<void>((done, fail) => {
    child.on('message', (message) => ((message as { listening?: string }).listening ? done() : undefined));
    child.once('exit', (code) => fail(new Error(`dev server exited (${code}); see ${join(WORK, 'dev.log')}`)));
  });
  return child;
}
