/**
 * `npm run screenshots`: the README's pictures, made from the real site in the Debian Chromium
 * so they stay current: the home page, the deals index and a deal page, on a desktop and a
 * phone, light and dark, against the server on an existing build (`npm run build` first).
 * Writes docs/screenshots/<page>-<device>-<scheme>.png and prints each file.
 */
import { fork } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, 'docs', 'screenshots');
const PORT = process.env.SCREENSHOTS_PORT ?? '4391';
const DEVICES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

const server = fork(resolve(ROOT, 'scripts', 'serve.ts'), [], { env: { ...process.env, PORT, HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
await new Promise<void>((done) => server.on('message', () => done()));
const base = `http://127.0.0.1:${PORT}`;
const { deals } = (await (await fetch(`${base}/api/v1/deals?featured=true&limit=1`)).json()) as { deals: { slug: string }[] };
const pages = { home: '/', deals: '/deals/', deal: `/deals/${deals[0]?.slug ?? ''}/` };
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  await mkdir(OUT, { recursive: true });
  for (const [name, path] of Object.entries(pages)) {
    for (const [device, viewport] of Object.entries(DEVICES)) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await browser.newPage({ viewport, colorScheme, deviceScaleFactor: 1 });
        await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
        const file = resolve(OUT, `${name}-${device}-${colorScheme}.png`);
        await page.screenshot({ path: file });
        console.log(file);
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  server.kill();
}
