/**
 * `npm run screenshots`: the README's and the editors' guide's pictures, made from the real site
 * in the Debian Chromium so they stay current, against the server on an existing build (`npm run
 * build` first): the home page, the deals index and a deal page on a desktop and a phone, light
 * and dark; and the admin (signed in as a throwaway admin in a temporary DATA_DIR; nothing is
 * written): the deal list, a deal's form and its history, a refused save, the startups list.
 * Writes docs/screenshots/<page>-<device>-<scheme>.png and prints each file.
 */
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, 'docs', 'screenshots');
const PORT = process.env.SCREENSHOTS_PORT ?? '4391';
const DEVICES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
/** The admin pictures: a desktop in light and a phone in dark are enough to show both. */
const ADMIN_VIEWS = [
  ['desktop', 'light'],
  ['phone', 'dark'],
] as const;

const dataDir = await mkdtemp(join(tmpdir(), 'screenshots-'));
const admin = { email: 'screenshots@example.com', password: randomBytes(18).toString('base64url') };
execFileSync(process.execPath, ['scripts/admin.ts', 'add', admin.email, '--role', 'admin', '--password', admin.password], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'ignore' });
const server = fork(resolve(ROOT, 'scripts', 'serve.ts'), [], { env: { ...process.env, PORT, HOST: '127.0.0.1', DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
await new Promise<void>((done) => server.on('message', () => done()));
const base = `http://127.0.0.1:${PORT}`;
const { deals } = (await (await fetch(`${base}/api/v1/deals?featured=true&limit=1`)).json()) as { deals: { slug: string }[] };
const slug = deals[0]?.slug ?? '';
const pages = { home: '/', deals: '/deals/', deal: `/deals/${slug}/` };
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  await mkdir(OUT, { recursive: true });
  for (const [name, path] of Object.entries(pages)) {
    for (const [device, viewport] of Object.entries(DEVICES)) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await browser.newPage({ viewport, colorScheme, deviceScaleFactor: 1 });
        await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
        await shoot(page, `${name}-${device}-${colorScheme}`);
        await page.close();
      }
    }
  }
  for (const [device, colorScheme] of ADMIN_VIEWS) await adminPictures(browser, device, colorScheme);
} finally {
  await browser.close();
  server.kill();
  await rm(dataDir, { recursive: true, force: true });
}

// --- internal ---

async function shoot(page: Page, name: string): Promise<void> {
  const file = resolve(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(file);
}

/** The admin, signed in: list, form, history, a refused save, startups, a listing's logo. */
async function adminPictures(browser: Browser, device: keyof typeof DEVICES, colorScheme: 'light' | 'dark'): Promise<void> {
  const page = await browser.newPage({ viewport: DEVICES[device], colorScheme, deviceScaleFactor: 1 });
  try {
    await page.goto(`${base}/login`);
    await page.locator('#email').fill(admin.email);
    await page.locator('#password').fill(admin.password);
    await page.locator('form.login button[type=submit]').click();
    await page.waitForURL(/\/admin\/$/);
    await page.locator('[data-rows] tr').first().waitFor();
    await shoot(page, `admin-deals-${device}-${colorScheme}`);

    await page.goto(`${base}/admin/deal/?slug=${encodeURIComponent(slug)}`, { waitUntil: 'networkidle' });
    await shoot(page, `admin-deal-${device}-${colorScheme}`);
    const history = page.locator('[data-history]');
    await history.locator('.version').first().waitFor();
    const file = resolve(OUT, `admin-history-${device}-${colorScheme}.png`);
    await history.screenshot({ path: file });
    console.log(file);

    // A save with nothing filled in: refused by the API (nothing is written), every problem shown.
    await page.goto(`${base}/admin/deal/`, { waitUntil: 'networkidle' });
    await page.locator('[data-publish]').click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await shoot(page, `admin-errors-${device}-${colorScheme}`);

    await page.goto(`${base}/admin/startups/`, { waitUntil: 'networkidle' });
    await shoot(page, `admin-startups-${device}-${colorScheme}`);

    // The Logo panel of a listing whose logo is a committed file (content/logos/startups/).
    await page.goto(`${base}/admin/startup/?slug=cronwatch`, { waitUntil: 'networkidle' });
    const logo = page.locator('[data-logo-panel]');
    await logo.locator('[data-logo-image]').waitFor();
    const logoFile = resolve(OUT, `admin-logo-${device}-${colorScheme}.png`);
    await logo.screenshot({ path: logoFile });
    console.log(logoFile);
  } finally {
    await page.close();
  }
}
