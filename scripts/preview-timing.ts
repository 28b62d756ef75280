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
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { contentCopy, ROOT, startDev } from './_dev-on-copy.ts';

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

await contentCopy(WORK);
const dev = await startDev(WORK, PORT);
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
