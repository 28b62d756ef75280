/**
 * `npm run lighthouse`: Lighthouse (performance, accessibility, best practices, SEO) in the
 * Debian Chromium on every page type (home, deals and programs indexes, a category, a deal, the
 * startups index, a startup, about, submit), with Lighthouse's phone and desktop settings,
 * against the server on an existing build (`npm run build` first). Prints one line per page
 * and setting.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const ROOT = resolve(import.meta.dirname, '..');
const PORT = process.env.LIGHTHOUSE_PORT ?? '4390';
const server = fork(resolve(ROOT, 'scripts', 'serve.ts'), [], { env: { ...process.env, PORT, HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
await new Promise<void>((done) => server.on('message', () => done()));
const base = `http://127.0.0.1:${PORT}`;
const { deals } = (await (await fetch(`${base}/api/v1/deals?limit=1`)).json()) as { deals: { slug: string; category: string }[] };
const { startups } = (await (await fetch(`${base}/api/v1/startups?limit=1`)).json()) as { startups: { slug: string }[] };
const pages = ['/', '/deals/', '/programs/', `/categories/${deals[0]?.category}/`, `/deals/${deals[0]?.slug}/`, '/startups/', `/startups/${startups[0]?.slug}/`, '/about/', '/submit/'];
const settings = { phone: undefined, desktop: desktopConfig };
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  console.log('| page | setting | performance | accessibility | best practices | SEO | transferred |');
  console.log('|---|---|---|---|---|---|---|');
  for (const page of pages)
    for (const [setting, config] of Object.entries(settings)) {
      const result = await lighthouse(`${base}${page}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] }, config);
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`no Lighthouse result for ${page}`);
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const bytes = (lhr.audits['total-byte-weight']?.numericValue ?? 0) / 1024;
      console.log(`| ${page} | ${setting} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} | ${bytes.toFixed(1)} KB |`);
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id);
      if (failing.length) console.log(`|  |  | failing audits: ${failing.join(', ')} | | | | |`);
    }
} finally {
  chrome.kill();
  server.kill();
}
