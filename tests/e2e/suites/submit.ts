/**
 * The submission form on /submit/ (issue 15, item 6): it posts to its own page; a refused post
 * comes back as the same page (400) with every value as typed and every problem next to its
 * field and in a summary at the top, in the page's own words; an accepted one lands on the
 * thanks page, which says what happens next. The same without JavaScript and with it (the page
 * has no script). Accepted submissions land in the run's private store
 * (DATA_DIR/submissions/pending), never in its content repository, with the site category chosen.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { openPage } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';

/** What the visitor types and chooses. */
interface Entry {
  company_name: string;
  website_url: string;
  site_category: string;
  benefit_description: string;
  deal_value: string;
  redemption_method: 'link' | 'code';
  redemption_link: string;
  is_exclusive: boolean;
  submitter_email: string;
  logo_url: string;
}

const valid = (company: string): Entry => ({
  company_name: company,
  website_url: 'https://example.com',
  site_category: 'developer-tools',
  benefit_description: 'Half price on every plan for the first year, for startups under 20 people.',
  deal_value: '50% off for 12 months',
  redemption_method: 'code',
  redemption_link: 'STARTUP50',
  is_exclusive: true,
  submitter_email: 'founder@example.com',
  logo_url: 'https://example.com/logo.png',
});

/** Six problems at once; the radio, checkbox and optional fields set away from their defaults. */
const INVALID: Entry = {
  company_name: 'A',
  website_url: 'example dot com',
  site_category: '',
  benefit_description: 'Too short',
  deal_value: 'x'.repeat(100),
  redemption_method: 'link',
  redemption_link: 'call us',
  is_exclusive: true,
  submitter_email: 'nobody',
  logo_url: 'https://example.com/logo.png',
};

/** The page's words for each problem of INVALID, in the order of the form. */
const INVALID_MESSAGES: Array<[string, string]> = [
  ['company_name', 'Company name must be at least 2 characters.'],
  ['website_url', "Enter the company's website as a full web address, like https://example.com."],
  ['site_category', 'Choose a category.'],
  ['benefit_description', 'What startups get must be at least 10 characters.'],
  ['redemption_link', 'Enter a full web address, like https://example.com/startups, or choose “A coupon code” above.'],
  ['submitter_email', 'Enter an e-mail address like name@example.com, or leave it empty.'],
];

async function fill(page: Page, entry: Entry): Promise<void> {
  for (const name of ['company_name', 'website_url', 'benefit_description', 'deal_value', 'redemption_link', 'submitter_email', 'logo_url'] as const) {
    await page.locator(`#${name}`).fill(entry[name]);
  }
  await page.locator('#site_category').selectOption(entry.site_category);
  await page.locator(`#redemption_method-${entry.redemption_method}`).check();
  await page.locator('#is_exclusive').setChecked(entry.is_exclusive);
}

/** What the form shows now, in the shape of an Entry. */
async function shown(page: Page): Promise<Entry> {
  const value = (name: string) => page.locator(`#${name}`).inputValue();
  return {
    company_name: await value('company_name'),
    website_url: await value('website_url'),
    site_category: await value('site_category'),
    benefit_description: await value('benefit_description'),
    deal_value: await value('deal_value'),
    redemption_method: (await page.locator('#redemption_method-code').isChecked()) ? 'code' : 'link',
    redemption_link: await value('redemption_link'),
    is_exclusive: await page.locator('#is_exclusive').isChecked(),
    submitter_email: await value('submitter_email'),
    logo_url: await value('logo_url'),
  };
}

/** Submit the form; the status of the page it leads to. */
async function send(page: Page): Promise<number | undefined> {
  const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Submit for review' }).click()]);
  return response?.status();
}

/** Submissions waiting in the run's private store. */
function pendingSubmissions(): string[] {
  const pending = join(e2e().site.dataDir, 'submissions', 'pending');
  return existsSync(pending) ? readdirSync(pending) : [];
}

const storedRecord = (id: string): Record<string, unknown> => JSON.parse(readFileSync(join(e2e().site.dataDir, 'submissions', 'pending', `${id}.json`), 'utf8')) as Record<string, unknown>;

/** Every problem next to its field: the message inside the field's block and named by the control's aria-describedby. */
async function expectErrorsNextToFields(page: Page, expected: Array<[string, string]>): Promise<void> {
  const slots = page.locator('[data-error-for]');
  expect(await slots.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-error-for')))).toEqual(expected.map(([field]) => field));
  for (const [field, message] of expected) {
    const slot = page.locator(`[data-error-for="${field}"]`);
    // Said as an error to screen readers ("Error: " visually hidden).
    expect(await slot.textContent()).toBe(`Error: ${message}`);
    expect(await slot.locator('.visually-hidden').textContent()).toBe('Error: ');
    // In the same field block as the control, and the control's description.
    expect(await slot.evaluate((node, id) => node.closest('.field')?.contains(document.getElementById(id)) ?? false, field)).toBe(true);
    expect((await page.locator(`#${field}`).getAttribute('aria-describedby'))?.split(' ')).toContain(`${field}-error`);
    expect(await page.locator(`#${field}`).getAttribute('aria-invalid')).toBe('true');
  }
  // The summary at the top: each message, linking to its field; it has the focus (read out first).
  const links = page.locator('[data-error-summary] li a');
  expect(await links.evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('href'), n.textContent?.trim()]))).toEqual(expected.map(([field, message]) => [`#${field}`, message]));
  expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-error-summary'))).toBe(true);
  expect(await page.title()).toMatch(/^Error: Submit a deal/);
}

export function submitSuite(): void {
  describe('submit form', () => {
    for (const javaScriptEnabled of [false, true]) {
      test(`${javaScriptEnabled ? 'with' : 'without'} JavaScript: a refused post shows every problem next to its field and keeps every value; corrected, it lands on the thanks page`, async () => {
        const { page, pageErrors, close } = await openPage(e2e().browser, { javaScriptEnabled });
        try {
          await page.goto(e2e().url('/submit/'));
          // The site's categories in human words, grouped; SPEC's six values are not offered.
          expect(await page.locator('#site_category optgroup').evaluateAll((groups) => groups.map((g) => g.getAttribute('label')))).toEqual(['Deals', 'Programs']);
          expect(await page.locator('#site_category option[value="ai-ml-credits"]').textContent()).toBe('AI and ML credits');
          expect(await page.locator('#site_category optgroup[label="Programs"] option').allTextContents()).toContain('Accelerators');
          expect(await page.locator('select[name="category"], [name="category"]').count()).toBe(0);
          expect(await page.locator('[data-error-summary]').count()).toBe(0);

          const before = pendingSubmissions().length;
          await fill(page, INVALID);
          expect(await send(page)).toBe(400);
          expect(new URL(page.url()).pathname).toBe('/submit/');
          expect(new URL(page.url()).search).toBe('');
          await expectErrorsNextToFields(page, INVALID_MESSAGES);
          expect(await shown(page)).toEqual(INVALID);
          expect(pendingSubmissions().length).toBe(before);

          // A second refusal keeps what was chosen the first time too (a select and the radio away from its default).
          const second = { ...INVALID, site_category: 'grants', redemption_method: 'code' as const, is_exclusive: false };
          await fill(page, second);
          expect(await send(page)).toBe(400);
          expect(await shown(page)).toEqual(second);
          await expectErrorsNextToFields(
            page,
            INVALID_MESSAGES.filter(([field]) => field !== 'site_category' && field !== 'redemption_link'),
          );

          const entry = valid(`E2E ${javaScriptEnabled ? 'Script' : 'No-Script'} Co ${Date.now()}`);
          await fill(page, entry);
          expect(await send(page)).toBe(200);
          const url = new URL(page.url());
          expect(url.pathname).toBe('/submit/thanks/');
          const id = url.searchParams.get('id') ?? '';
          expect(id).toMatch(/^sub-[0-9a-f]{16}$/);
          expect((await page.locator('main h1').textContent())?.trim()).toBe('Thank you');
          expect(pendingSubmissions().length).toBe(before + 1);
          // Stored as typed, with the site category chosen and SPEC's category derived from it.
          expect(storedRecord(id)).toMatchObject({
            company_name: entry.company_name,
            site_category: 'developer-tools',
            category: 'saas',
            redemption_method: 'code',
            redemption_link: 'STARTUP50',
            is_exclusive: true,
          });
          expect(pageErrors).toEqual([]);
        } finally {
          await close();
        }
      });
    }

    test('a post from another site is refused by the origin check (403) and stores nothing', async () => {
      const before = pendingSubmissions().length;
      const form = new URLSearchParams({ ...valid(`E2E Foreign Co ${Date.now()}`), is_exclusive: 'true' });
      const response = await fetch(e2e().url('/submit/'), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://attacker.example' },
        body: form,
      });
      expect(response.status).toBe(403);
      expect(pendingSubmissions().length).toBe(before);
    });

    test('the thanks page says what happens next, and links to another submission and to the deals', async () => {
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/submit/thanks/?id=sub-0000000000000000'));
        const main = await page.locator('main').innerText();
        expect(main).toContain('Editors review submissions in the order they arrive.');
        expect(main).toContain('used only to ask you about this submission');
        expect(main).not.toMatch(/\bwithin\b|\bdays?\b|\bhours?\b/);
        expect(await page.getByRole('link', { name: 'Submit another deal' }).getAttribute('href')).toBe('/submit/');
        expect(await page.getByRole('link', { name: 'Browse the deals' }).getAttribute('href')).toBe('/deals/');
      } finally {
        await close();
      }
    });

    test('a form elsewhere posting to the API is sent back to /submit/?error=<code>&field=<field>; the page shows its own message next to that field', async () => {
      const form = new URLSearchParams({ ...valid('A'), category: 'saas', is_exclusive: 'true', redemption_method: 'code' });
      const response = await fetch(e2e().url('/api/v1/submit-deal'), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
        body: form,
      });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location') ?? '', e2e().url('/'));
      expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'too_short', field: 'company_name' });
      for (const javaScriptEnabled of [false, true]) {
        const { page, pageErrors, close } = await openPage(e2e().browser, { javaScriptEnabled });
        try {
          await page.goto(e2e().url(`${location.pathname}${location.search}`));
          await expectErrorsNextToFields(page, [['company_name', 'Company name must be at least 2 characters.']]);
          expect(pageErrors).toEqual([]);
        } finally {
          await close();
        }
      }
    });

    describe('text in the query is never shown (a link cannot put its words on this site)', () => {
      const PHISHING = 'Your account is locked, call +1 555 0100 and give your password';
      const GENERIC = 'The submission could not be accepted; check the fields and try again.';
      test.each([
        ['as the error', { error: PHISHING }],
        ['as the error of a field', { error: PHISHING, field: 'company_name' }],
        ['as the field', { error: 'required', field: PHISHING }],
        ['as an inherited property name', { error: 'constructor', field: 'company_name' }],
        ['as an inherited field name', { error: 'required', field: 'constructor' }],
      ])('%s', async (_name, query) => {
        for (const javaScriptEnabled of [true, false]) {
          const { page, pageErrors, close } = await openPage(e2e().browser, { javaScriptEnabled });
          try {
            await page.goto(e2e().url(`/submit/?${new URLSearchParams(query)}`));
            const main = await page.locator('main').innerText();
            expect(main).not.toContain('locked');
            expect(main).not.toContain('555');
            expect(main).not.toContain('function');
            expect(await page.content()).not.toContain('locked');
            // Something went wrong, and the page says so in its own words, once.
            expect((await page.locator('[data-form-error]').textContent())?.trim()).toBe(GENERIC);
            const fieldErrors = (await page.locator('[data-error-for]').allTextContents()).map((t) => t.trim()).filter(Boolean);
            expect(fieldErrors).toEqual([]);
            expect(pageErrors).toEqual([]);
          } finally {
            await close();
          }
        }
      });

      test.each(['Your account is locked, call +1 555 0100', 'constructor', 'valueOf', '__proto__'])('the sign-in page words its own codes the same way: /login?error=%s', async (error) => {
        const response = await fetch(e2e().url(`/login?${new URLSearchParams({ error })}`));
        expect(response.status).toBe(200);
        const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
        try {
          await page.goto(e2e().url(`/login?${new URLSearchParams({ error })}`));
          expect((await page.locator('[data-login-message]').textContent())?.trim()).toBe('Sign-in failed.');
        } finally {
          await close();
        }
      });
    });
  });
}
