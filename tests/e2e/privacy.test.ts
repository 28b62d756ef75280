/**
 * A member's data in a real browser against the real server (issue 18, item 7), with
 * JavaScript off (every step is a plain link or form): a new visitor signs up, confirms through
 * the mail left in DATA_DIR/outbox, signs in, saves a deal, finds it on /account/privacy/,
 * downloads the export (its content checked), mistypes the password once, deletes the account,
 * lands on /account/deleted/ signed out, and cannot sign in again. The pages pass axe in both
 * colour schemes; with E2E_SHOTS set they are pictured at phone and desktop width, light and dark.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DESKTOP, openPage, PHONE, shoot } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { signIn, signUpAndSignIn } from './helpers/members.ts';
import { mailedLink } from './helpers/mail.ts';
import { ROOT } from './helpers/site.ts';
import { scan } from './suites/accessibility.ts';

beforeAll(() => setUp());
afterAll(tearDown);

const EMAIL = 'e2e-privacy@example.com';
const PASSWORD = 'a long enough password';
const MEMBER = { email: EMAIL, password: PASSWORD };

/** The outbox files addressed to EMAIL. */
async function mailToMember(): Promise<string[]> {
  const outbox = join(e2e().site.dataDir, 'outbox');
  const names = await readdir(outbox).catch(() => [] as string[]);
  const mine: string[] = [];
  for (const name of names) if ((await readFile(join(outbox, name), 'utf8')).startsWith(`To: ${EMAIL}\n`)) mine.push(name);
  return mine;
}

test('without JavaScript: sign up, confirm, save a deal, download the data, delete the account, and no sign-in after', async () => {
  const { page, context, close } = await openPage(e2e().browser, { viewport: PHONE, javaScriptEnabled: false, acceptDownloads: true });
  try {
    await signUpAndSignIn(page, MEMBER);

    await page.goto(e2e().url('/deals/'));
    const card = page.locator('li.card form[data-save]').first();
    const dealId = (await card.locator('input[name="id"]').getAttribute('value')) as string;
    await card.locator('button').click();
    await page.waitForURL((url) => url.pathname === '/deals/' && url.searchParams.get('saved') === '1');

    // The saved page leads to the member's data; the footer to the privacy notice.
    await page.goto(e2e().url('/account/saved/'));
    await page.getByRole('link', { name: /download it or delete your account/ }).click();
    await page.waitForURL(/\/account\/privacy\/$/);
    const response = await page.reload();
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.locator('[data-privacy-email]').textContent()).toBe(EMAIL);
    expect(await page.locator('[data-section="savedItems"] [data-count]').textContent()).toBe('1 item');
    expect(await page.locator('[data-section="outbox"] [data-count]').textContent()).toBe('1 item');
    expect(await page.getByRole('link', { name: 'How we handle data' }).getAttribute('href')).toBe('/privacy/');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^[a-z0-9-]+-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as {
      format: string;
      account: { email: string; role: string; hasPassword: boolean; emailConfirmedAt: string | null };
      savedItems: { kind: string; id: string }[];
      outbox: { kind: string }[];
    };
    expect(exported.format).toBe('member-data/1');
    expect(exported.account).toMatchObject({ email: EMAIL, role: 'member', hasPassword: true });
    expect(exported.account.emailConfirmedAt).not.toBeNull();
    expect(exported.savedItems.map((i) => [i.kind, i.id])).toEqual([['deal', dealId]]);
    expect(exported.outbox.map((m) => m.kind)).toEqual(['verify']);
    expect(JSON.stringify(exported)).not.toMatch(/scrypt|generation|token=/);

    // A mistyped password deletes nothing and says so at the form.
    await page.getByLabel('Your current password').fill('not the password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.pathname === '/account/privacy/' && url.searchParams.get('error') === 'password');
    expect(await page.locator('[data-privacy-message]').textContent()).toBe('That password is not right. Nothing was deleted.');
    await shoot(page, 'account-privacy-refused');

    await page.getByLabel('Your current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(/\/account\/deleted\/$/);
    expect(await page.locator('h1').textContent()).toBe('Your account is deleted');
    expect((await context.cookies()).map((c) => c.name).filter((name) => name.startsWith('deals_'))).toEqual([]);
    await shoot(page, 'account-deleted');
    expect(await mailToMember()).toEqual([]);

    await page.goto(e2e().url('/account/privacy/'));
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/account/privacy/');
    await signIn(page, MEMBER);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'invalid');
    expect(e2e().site.errors).toEqual([]);
  } finally {
    await close();
  }
}, 240_000);

test('/account/privacy/, /privacy/ and /account/deleted/ pass axe in both colour schemes and fit a phone; the only admin gets no delete form; pictured with E2E_SHOTS', async () => {
  const member = { email: 'e2e-privacy-look@example.com', password: 'another long password' };
  // A member with a saved deal, signed in through the API as the browser would be.
  const { page, context, close } = await openPage(e2e().browser, { viewport: DESKTOP });
  try {
    const origin = e2e().url('');
    const post = (path: string, body: unknown) => context.request.post(e2e().url(path), { data: body, headers: { Origin: origin } });
    expect((await post('/api/v1/auth/signup', { email: member.email, password: member.password })).status()).toBe(202);
    const link = new URL(await mailedLink(member.email, 'verify'));
    expect((await post('/api/v1/auth/verify', { token: link.searchParams.get('token') })).status()).toBe(200);
    expect((await post('/api/v1/auth/login', member)).status()).toBe(200);
    const deal = ((await (await context.request.get(e2e().url('/api/v1/deals?limit=1'))).json()) as { deals: { id: string }[] }).deals[0];
    expect((await post('/api/v1/me/saved', { kind: 'deal', id: deal?.id })).status()).toBe(200);

    for (const path of ['/account/privacy/', '/privacy/', '/account/deleted/']) {
      await page.goto(e2e().url(path));
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await scan(page, path, scheme)).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      for (const width of [320, PHONE.width]) {
        await page.setViewportSize({ width, height: PHONE.height });
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} at ${width} px`).toBeLessThanOrEqual(width);
      }
      await page.setViewportSize(DESKTOP);
      if (path !== '/account/deleted/') await shoot(page, path === '/privacy/' ? 'privacy' : 'account-privacy');
    }
    // The footer of every page links to the notice.
    expect(await page.locator('footer.site').getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe('/privacy/');

    // The site's only admin is told their account cannot be deleted, and gets no form for it.
    const admin = { email: 'e2e-privacy-admin@example.com', password: 'an admin password' };
    execFileSync(process.execPath, ['scripts/admin.ts', 'add', admin.email, '--role', 'admin', '--password', admin.password], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: e2e().site.dataDir },
      stdio: 'pipe',
    });
    expect((await post('/api/v1/auth/login', admin)).status()).toBe(200);
    await page.goto(e2e().url('/account/privacy/'));
    expect(await page.locator('[data-privacy-only-admin]').isVisible()).toBe(true);
    expect(await page.locator('[data-privacy-delete]').count()).toBe(0);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await scan(page, '/account/privacy/ (only admin)', 'dark')).toEqual([]);
    await shoot(page, 'account-privacy-only-admin');
    expect(e2e().site.errors).toEqual([]);
  } finally {
    await close();
  }
}, 240_000);
