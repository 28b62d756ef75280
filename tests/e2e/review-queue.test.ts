/**
 * The review queue in the browser (issue 16 item 1): a submission arrives through the real
 * POST /api/v1/submit-deal; the admin sees the pending count in the navigation, opens it with
 * "Edit and approve" into the deal form prefilled with the default title and slug, changes the
 * title, approves, follows the link to the new page. Its own site and browser (helpers/context.ts).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openPage, getJson, type ApiDeal } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { addAccount } from './suites/admin.ts';

const ADMIN = { email: 'e2e-reviewer@example.com', password: 'e2e-reviewer-password' };

beforeAll(() => setUp());
afterAll(tearDown);

test('Edit and approve: the count, the prefilled form, the edited title published, the links', async () => {
  addAccount(ADMIN.email, '--password', ADMIN.password);
  const submitted = await fetch(e2e().url('/api/v1/submit-deal'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      company_name: 'Quasar Queue',
      website_url: 'https://quasar.example',
      benefit_description: 'Six months of Quasar Queue free for startups.',
      category: 'cloud',
      deal_value: '$5,000 in credits',
      redemption_link: 'https://quasar.example/startups',
    }),
  });
  expect(submitted.status, await submitted.clone().text()).toBe(201);

  const { page, pageErrors, close } = await openPage(e2e().browser);
  try {
    await page.goto(e2e().url('/login'));
    await page.locator('#email').fill(ADMIN.email);
    await page.locator('#password').fill(ADMIN.password);
    await page.locator('form.login button[type=submit]').click();
    await page.waitForURL(/\/admin\/$/);
    // Every admin page shows the pending count.
    await expect.poll(() => page.locator('[data-queue-link]').textContent()).toBe('Review queue (1)');

    await page.goto(e2e().url('/admin/submissions/'));
    await page.getByRole('link', { name: 'Edit and approve' }).click();
    await page.waitForURL(/\/admin\/deal\/\?submission=sub-/);
    // Prefilled with the default title (company and offer) and slug (company).
    await expect.poll(() => page.locator('#title').inputValue()).toBe('Quasar Queue Startup Credits');
    expect(await page.locator('#slug').inputValue()).toBe('quasar-queue');
    expect(await page.locator('#category').inputValue()).toBe('cloud-credits');
    expect(await page.locator('#value').inputValue()).toBe('$5,000 in credits');

    await page.locator('#title').fill('Quasar Queue for Startups');
    await page.getByRole('button', { name: 'Approve and publish' }).click();
    await expect.poll(() => page.locator('[data-status]').textContent()).toContain('Approved: "Quasar Queue for Startups" is live.');
    await expect.poll(() => page.locator('[data-queue-link]').textContent()).toBe('Review queue (0)');
    expect(await page.getByRole('link', { name: 'Edit the deal' }).getAttribute('href')).toBe('/admin/deal/?slug=quasar-queue');
    const published = await getJson<{ deal: ApiDeal }>(e2e().url('/api/v1/deals?slug=quasar-queue'));
    expect(published.deal.title).toBe('Quasar Queue for Startups');

    await page.getByRole('link', { name: 'View the page' }).click();
    await page.waitForURL(/\/deals\/quasar-queue\/$/);
    expect(await page.locator('h1').textContent()).toBe('Quasar Queue for Startups');
    expect(pageErrors).toEqual([]);
  } finally {
    await close();
  }
  expect(e2e().site.errors).toEqual([]);
});
