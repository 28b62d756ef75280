/**
 * `npm run lighthouse`: Lighthouse (performance, accessibility, best practices, SEO) in the
 * Debian Chromium on the home page, the deals index, a deal page and the startups index, against
 * the server on an existing build (`npm run build` first). Prints one line per page.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const ROOT = resolve(import.meta.dirname, '..');
const PORT = process.env.LIGHTHOUSE_PORT ?? '4390';
const server = fork(resolve(ROOT, 'scripts', 'serve.ts'), [], { env: { ...process.env, PORT, HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
await new Promise<void>((done) => server.on('message', () => done()));
const base = `http://127.0.0.1:${PORT}`;
const catalog = (await (await fetch(`${base}/api/v1/deals?limit=1`)).json()) as { deals: { slug: string }[] };
const pages = ['/', '/deals/', `/deals/${catalog.deals[0]?.slug}/`, '/startups/'];
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  console.log('| page | performance | accessibility | best practices | SEO | transferred |');
  console.log('|---|---|---|---|---|---|');
  for (const page of pages) {
    const result = await lighthouse(`${base}${page}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${page}`);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const bytes = (lhr.audits['total-byte-weight']?.numericValue ?? 0) / 1024;
    console.log(`| ${page} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} | ${bytes.toFixed(1)} KB |`);
    const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary').map((a) => a.id);
    if (failing.length) console.log(`|  | failing audits: ${failing.join(', ')} | | | | |`);
  }
} finally {
  chrome.kill();
  server.kill();
}
