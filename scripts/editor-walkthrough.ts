/**
 * `node scripts/editor-walkthrough.ts`: how long a new editor takes to add a valid deal, both
 * ways docs/editing-content.md describes, walked through in real Chromium against `npm run dev`
 * on a git copy of the starter catalog (in `.e2e/editor-walkthrough/`, port `WALK_PORT`,
 * default 4392):
 * 1. **In the admin**: from the sign-in page, through "New deal", the required fields and a
 *    short description typed in, Publish, to the new deal's page opened from the link the
 *    admin shows.
 * 2. **In git, from the template**: the template (docs/templates/deal.md) copied to
 *    `content/deals/<slug>.md`, its fields filled in and saved, until the new deal's page
 *    (`/deals/<slug>/`, typed into the browser) shows it.
 * Typing runs at `TYPING_MS` per character (default 200: about 60 words a minute) with
 * `PAUSE_MS` (default 1500) before each field to read its label; `TYPING_MS=0 PAUSE_MS=0` gives
 * the machine's share alone. Both timings are printed; nothing is asserted.
 */
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { contentCopy, ROOT, startDev } from './_dev-on-copy.ts';

const WORK = join(ROOT, '.e2e', 'editor-walkthrough');
const CONTENT = join(WORK, 'repo', 'content');
const DATA = join(WORK, 'data');
const PORT = process.env.WALK_PORT ?? '4392';
const BASE = `http://127.0.0.1:${PORT}`;
const TYPING_MS = Number(process.env.TYPING_MS ?? 200);
const PAUSE_MS = Number(process.env.PAUSE_MS ?? 1500);
const EDITOR = { email: 'new-editor@example.com', password: 'walkthrough-password-1' };
const stamp = Date.now().toString(36);

await prepare();
const dev = await startDev(WORK, PORT);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const admin = await inTheAdmin();
  const git = await inGitFromTheTemplate();
  console.log(`a new valid deal, typing at ${TYPING_MS} ms a character, ${PAUSE_MS} ms before each field:`);
  console.log(`  in the admin (sign-in to the published page)      ${seconds(admin.total)}  (typing and reading ${seconds(admin.human)}, the machine ${seconds(admin.total - admin.human)})`);
  console.log(`  in git from the template (copy to the page shown) ${seconds(git.total)}  (typing and reading ${seconds(git.human)}, the machine ${seconds(git.total - git.human)})`);
} finally {
  await browser.close();
  dev.kill('SIGTERM');
}

// --- internal ---

/** Time a person spends: typing `text`, after reading the field's label. */
function humanMs(text: string): number {
  return PAUSE_MS + text.length * TYPING_MS;
}

async function inTheAdmin(): Promise<{ total: number; human: number }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  let human = 0;
  const type = async (selector: string, text: string) => {
    await sleep(PAUSE_MS);
    await page.locator(selector).pressSequentially(text, { delay: TYPING_MS });
    human += humanMs(text);
  };
  const title = `Walkthrough ${stamp} hosting credits`;
  const started = performance.now();
  await page.goto(`${BASE}/login`);
  await type('#email', EDITOR.email);
  await type('#password', EDITOR.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin\//);
  await page.getByRole('link', { name: 'New deal', exact: true }).click();
  await page.waitForURL(/\/admin\/deal\/$/);
  await type('#title', title);
  await type('#provider', `Walkthrough ${stamp}`);
  await sleep(PAUSE_MS);
  await page.locator('#category').selectOption('cloud-credits');
  human += PAUSE_MS;
  await type('#shortDescription', 'Credits for hosting and databases in the first year.');
  await type('#value', 'Up to $2,000 in credits');
  await type('#applicationUrl', 'https://walkthrough.example/apply');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.locator('[data-status]', { hasText: 'is live' }).waitFor();
  await page.locator('[data-status]').getByRole('link', { name: 'View the page' }).click();
  await page.locator('h1', { hasText: title }).waitFor();
  const total = performance.now() - started;
  await page.close();
  return { total, human };
}

async function inGitFromTheTemplate(): Promise<{ total: number; human: number }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const slug = `walkthrough-${stamp}-git`;
  const title = `Walkthrough ${stamp} git credits`;
  await page.goto(`${BASE}/deals/`);
  const started = performance.now();
  let human = 0;
  // Copy the template to its file name (a command, or the editor's "save as").
  const file = join(CONTENT, 'deals', `${slug}.md`);
  const copy = `cp docs/templates/deal.md content/deals/${slug}.md`;
  human += humanMs(copy);
  await sleep(humanMs(copy));
  let text = await readFile(join(ROOT, 'docs', 'templates', 'deal.md'), 'utf8');
  // Then each field the template's example needs changed, typed over, and one save at the end.
  const fields: Array<[string, string]> = [
    ['id', `d-${slug}`],
    ['title', title],
    ['provider', `Walkthrough ${stamp}`],
    ['applicationUrl', 'https://walkthrough.example/git'],
    ['shortDescription', 'Credits for hosting in the first year.'],
    ['value', 'Up to $1,000 in credits'],
    ['valueUsd', '1000'],
  ];
  for (const [field, value] of fields) {
    human += humanMs(value);
    await sleep(humanMs(value));
    text = text.replace(new RegExp(`^${field}: [^#\\n]*`, 'm'), `${field}: ${value} `);
  }
  await writeFile(file, text);
  // Then the new page's address, which is the file name (opened again until it is served).
  human += humanMs(`/deals/${slug}/`);
  await sleep(humanMs(`/deals/${slug}/`));
  for (;;) {
    await page.goto(`${BASE}/deals/${slug}/`);
    if (await page.locator('h1', { hasText: title }).count()) break;
    await sleep(100);
  }
  const total = performance.now() - started;
  await page.close();
  await rm(file);
  return { total, human };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`.padStart(7);
}

/** The copy of the starter catalog (once) and the new editor's admin account. */
async function prepare(): Promise<void> {
  await contentCopy(WORK);
  execFileSync(process.execPath, ['scripts/admin.ts', 'add', EDITOR.email, '--role', 'admin', '--password', EDITOR.password], { cwd: ROOT, env: { ...process.env, DATA_DIR: DATA }, stdio: 'pipe' });
}
