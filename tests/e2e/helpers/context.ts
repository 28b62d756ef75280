/**
 * The one site and browser the whole e2e run shares: `tests/e2e/site.test.ts` starts them once
 * (one content + Astro build per run) and every suite reads them through `e2e()`.
 */
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startSite, type Site } from './site.ts';

export interface E2E {
  site: Site;
  browser: Browser;
  /** Absolute URL of a site path. */
  url: (path: string) => string;
}

let current: E2E | undefined;

/** Start the site (with `env` added to the server's settings, such as SMTP_URL) and the browser. */
export async function setUp(env: Record<string, string> = {}): Promise<void> {
  const site = await startSite(env);
  try {
    const browser = await launchBrowser();
    current = { site, browser, url: (path) => `${site.url}${path}` };
  } catch (error) {
    await site.stop();
    throw error;
  }
}

export async function tearDown(): Promise<void> {
  const running = current;
  current = undefined;
  if (!running) return;
  await running.browser.close().catch(() => undefined);
  await running.site.stop();
}

/** The running site and browser (inside a test or hook). */
export function e2e(): E2E {
  if (!current) throw new Error('the e2e site is not running (setUp failed or has not run)');
  return current;
}
