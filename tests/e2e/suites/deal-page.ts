/**
 * Opening a deal: from the /deals/ list to the deal page, which shows the deal's facts, the Apply
 * link to its applicationUrl, eligibility and requirements, Offer JSON-LD, and the paid/editorial labels.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { getJson, openPage, type ApiDeal, type DealList } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';

async function dealBySlug(slug: string): Promise<ApiDeal> {
  return (await getJson<{ deal: ApiDeal }>(e2e().url(`/api/v1/deals?slug=${encodeURIComponent(slug)}`))).deal;
}

/** The list items under the `<h2>` with this text, or null when there is no such heading. */
function listUnder(page: Page, heading: string): Promise<string[] | null> {
  return page.evaluate((text) => {
    const h2 = [...document.querySelectorAll('main h2')].find((h) => h.textContent?.trim() === text);
    if (!h2) return null;
    const list = h2.nextElementSibling;
    return list?.tagName === 'UL' ? [...list.querySelectorAll(':scope > li')].map((li) => li.textContent?.trim() ?? '') : [];
  }, heading);
}

/** Check everything the deal page must show for `deal`. */
async function expectDealPage(page: Page, deal: ApiDeal): Promise<void> {
  expect(new URL(page.url()).pathname).toBe(`/deals/${deal.slug}/`);
  expect((await page.locator('main h1').textContent())?.trim()).toBe(deal.title);
  const facts = await page.locator('dl.facts').evaluate((dl) => {
    const pairs: Record<string, string> = {};
    for (const dt of dl.querySelectorAll('dt')) pairs[dt.textContent?.trim() ?? ''] = dt.nextElementSibling?.textContent?.trim() ?? '';
    return pairs;
  });
  expect(facts.Provider).toBe(deal.provider);
  if (deal.value) expect(facts.Value).toBe(deal.value);
  const apply = page.getByRole('link', { name: deal.status === 'expired' ? 'See the ended offer' : 'Apply', exact: true });
  expect(await apply.count()).toBe(1);
  expect(await apply.getAttribute('href')).toBe(deal.applicationUrl);
  expect(await listUnder(page, 'Eligibility')).toEqual(deal.eligibility?.length ? deal.eligibility : null);
  expect(await listUnder(page, 'Requirements')).toEqual(deal.requirements?.length ? deal.requirements : null);
  const scripts = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(scripts.length).toBe(1);
  const jsonLd = JSON.parse(scripts[0] ?? '') as Record<string, unknown>;
  expect(jsonLd['@context']).toBe('https://schema.org');
  expect(jsonLd['@type']).toBe('Offer');
  expect(jsonLd.name).toBe(deal.title);
  expect((jsonLd.offeredBy as { name?: string } | undefined)?.name).toBe(deal.provider);
  const labels = (await page.locator('main h1 + ul.badges > li').allTextContents()).map((t) => t.trim());
  expect(labels.some((l) => l.startsWith('Sponsored'))).toBe(deal.featured === true);
  expect(labels.includes('Editor’s pick')).toBe(deal.recommended === true);
}

export function dealPageSuite(): void {
  describe('deal page', () => {
    test('clicking the first deal on /deals/ opens its page with title, provider, Apply link, eligibility, requirements and Offer JSON-LD', async () => {
      const first = (await getJson<DealList>(e2e().url('/api/v1/deals?limit=1'))).deals[0];
      if (!first) throw new Error('the catalog has no deals');
      const deal = await dealBySlug(first.slug);
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/deals/'));
        const link = page.locator('[data-results] > li.card h3 a').first();
        expect((await link.textContent())?.trim()).toBe(deal.title);
        await Promise.all([page.waitForURL(`**/deals/${deal.slug}/`), link.click()]);
        await expectDealPage(page, deal);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    test('featured deals are labelled “Sponsored” and recommended ones “Editor’s pick”, on the list and on their page', async () => {
      const featured = (await getJson<DealList>(e2e().url('/api/v1/deals?featured=true&scope=all'))).deals;
      const recommended = (await getJson<DealList>(e2e().url('/api/v1/deals?recommended=true&scope=all'))).deals;
      const plain = (await getJson<DealList>(e2e().url('/api/v1/deals?scope=all'))).deals.find((d) => !d.featured && !d.recommended);
      expect(featured.length).toBeGreaterThan(0);
      expect(recommended.length).toBeGreaterThan(0);
      if (!plain) throw new Error('every deal is featured or recommended');
      const { page, close } = await openPage(e2e().browser);
      try {
        // On the list: every card's labels follow the deal's flags.
        await page.goto(e2e().url('/deals/'));
        const cards = await page
          .locator('[data-results] > li.card')
          .evaluateAll((items) =>
            items.map((li) => ({ href: li.querySelector('h3 a')?.getAttribute('href') ?? '', labels: [...li.querySelectorAll('.badges > li')].map((b) => b.textContent?.trim() ?? '') })),
          );
        const listed = (await getJson<DealList>(e2e().url('/api/v1/deals?limit=48'))).deals;
        expect(cards.map((c) => c.href)).toEqual(listed.map((d) => `/deals/${d.slug}/`));
        for (const [i, card] of cards.entries()) {
          const deal = listed[i];
          expect({ slug: deal?.slug, sponsored: card.labels.includes('Sponsored'), pick: card.labels.includes('Editor’s pick') }).toEqual({
            slug: deal?.slug,
            sponsored: deal?.featured === true,
            pick: deal?.recommended === true,
          });
        }
        // On their pages.
        const samples = [featured[0], recommended.find((d) => !d.featured) ?? recommended[0], plain];
        for (const sample of samples) {
          if (!sample) continue;
          const deal = await dealBySlug(sample.slug);
          await page.goto(e2e().url(`/deals/${deal.slug}/`));
          await expectDealPage(page, deal);
        }
      } finally {
        await close();
      }
    });

    test('an ended deal says so first, its button no longer says Apply, and live alternatives of its category follow', async () => {
      const expired = (await getJson<DealList>(e2e().url('/api/v1/deals?status=expired&scope=all'))).deals;
      expect(expired.length).toBeGreaterThan(0);
      const { page, close } = await openPage(e2e().browser);
      try {
        for (const sample of expired) {
          const deal = await dealBySlug(sample.slug);
          await page.goto(e2e().url(`/deals/${deal.slug}/`));
          await expectDealPage(page, deal);
          const notice = page.locator('main p.notice[role="note"]');
          expect((await notice.textContent())?.replace(/\s+/g, ' ')).toMatch(/has ended/);
          expect(await page.getByRole('link', { name: 'Apply', exact: true }).count()).toBe(0);
          const alternatives = await page.locator('#live-alternatives + ul.grid > li.card h3 a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
          if (alternatives.length === 0) {
            // No live deal in its category: the notice points to the category instead.
            expect(await notice.locator(`a[href="/categories/${deal.category}/"]`).count()).toBe(1);
            continue;
          }
          expect(await notice.locator('a[href="#live-alternatives"]').count()).toBe(1);
          for (const href of alternatives) {
            const slug = href.split('/').filter(Boolean).pop() ?? '';
            const alternative = await dealBySlug(slug);
            expect({ slug, status: alternative.status === 'expired' ? 'expired' : 'live', category: alternative.category }).toEqual({ slug, status: 'live', category: deal.category });
          }
        }
      } finally {
        await close();
      }
    });
  });
}
