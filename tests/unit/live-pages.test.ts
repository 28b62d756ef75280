/**
 * Which pages the server renders live instead of serving the built file (functions/site/
 * live-pages.ts), on real catalogs: the fixture as built, then changed the way an admin write
 * changes it (ContentSnapshot + withChangedDeals), or replaced the way a pull of listings does.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { builtSite, changedPage, type BuiltSite } from '../../functions/site/live-pages.ts';
import { createCatalog, withChangedDeals, type Catalog } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { FIXTURES } from '../helpers/server.ts';

const TODAY = '2026-11-21';
/** No logo changed since the build. */
const NO_LOGOS = { stamp: '' };
let built: Catalog;
let site: BuiltSite;
let postings: Parameters<typeof createCatalog>[1];

/** The catalog after an admin write of `upserts` / `removals`. */
function afterWrite(previous: Catalog, upserts: Parameters<ContentSnapshot['withDealChanges']>[0], removals: string[] = []): Catalog {
  const next = new ContentSnapshot(previous).withDealChanges(upserts, removals, TODAY);
  if (!next.value) throw new Error(JSON.stringify(next.diagnostics));
  return withChangedDeals(previous, next.value.data, next.value.changed, next.value.removedIds);
}

beforeAll(async () => {
  const result = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: TODAY });
  if (!result.value) throw new Error('fixture does not build');
  postings = result.value.postings;
  built = createCatalog(result.value.data, postings);
  site = builtSite(built);
});

describe('changedPage', () => {
  test('nothing is live while the catalog is the one the site was built from', () => {
    for (const path of ['/', '/deals/', '/programs/', '/startups/', `/deals/${built.deals[0]?.slug}/`, `/categories/${built.categories.deals[0]?.slug}/`]) {
      expect(changedPage(path, site, built, NO_LOGOS), path).toBeUndefined();
    }
  });

  test('after a write: lists, categories and the changed deal are live; other deals and the listings keep their built pages', () => {
    const [first, second] = built.deals as [Catalog['deals'][0], Catalog['deals'][0]];
    const live = afterWrite(built, [{ ...first, value: 'A brand new value' }]);
    expect(changedPage('/', site, live, NO_LOGOS)).toEqual({ kind: 'live', page: { kind: 'home' }, path: '/', markdown: false });
    expect(changedPage('/deals/index.md', site, live, NO_LOGOS)).toEqual({ kind: 'live', page: { kind: 'deals' }, path: '/deals/', markdown: true });
    expect(changedPage('/programs', site, live, NO_LOGOS)).toMatchObject({ page: { kind: 'programs' }, path: '/programs/' });
    expect(changedPage('/startups/index.html', site, live, NO_LOGOS)).toMatchObject({ page: { kind: 'startups' }, path: '/startups/' });
    const category = built.categories.deals.find((c) => c.slug === first.category);
    expect(changedPage(`/categories/${first.category}/`, site, live, NO_LOGOS)).toMatchObject({ page: { kind: 'category', category } });
    expect(changedPage(`/deals/${first.slug}/`, site, live, NO_LOGOS)).toMatchObject({ page: { kind: 'deal', deal: { slug: first.slug, value: 'A brand new value' } } });
    expect(changedPage(`/deals/${second.slug}/`, site, live, NO_LOGOS)).toBeUndefined();
    expect(changedPage(`/startups/${built.startups[0]?.slug}/`, site, live, NO_LOGOS)).toBeUndefined();
    // Not catalog pages, or not pages at all.
    for (const path of ['/about/', '/submit/', '/deals/search/', '/categories/', '/programs/x/', '/deals/a/b/', '/llms.txt']) {
      expect(changedPage(path, site, live, NO_LOGOS), path).toBeUndefined();
    }
  });

  test('a deleted deal and an unknown category are gone; a new deal is live', () => {
    const [first] = built.deals as [Catalog['deals'][0]];
    const removed = afterWrite(built, [], [first.slug]);
    expect(changedPage(`/deals/${first.slug}/`, site, removed, NO_LOGOS)).toEqual({ kind: 'gone' });
    expect(changedPage('/categories/no-such-category/', site, removed, NO_LOGOS)).toEqual({ kind: 'gone' });
    const added = afterWrite(built, [{ ...first, id: 'd-brand-new', slug: 'brand-new-deal' }]);
    expect(changedPage('/deals/brand-new-deal/index.md', site, added, NO_LOGOS)).toMatchObject({ page: { kind: 'deal' }, path: '/deals/brand-new-deal/', markdown: true });
  });

  test('a slug with no built page and none now is not live after a write', () => {
    const [first] = built.deals as [Catalog['deals'][0]];
    const live = afterWrite(built, [{ ...first, value: 'Another value' }]);
    expect(changedPage('/deals/never-a-deal/', site, live, NO_LOGOS)).toBeUndefined();
  });

  test('what the site was built from does not keep the built deals alive (each reaches the catalog file it was read from)', () => {
    // In a process of its own, with the collector at hand: the built deals are dropped, then collected.
    const script = `
      import { builtSite } from ${JSON.stringify(join(process.cwd(), 'functions/site/live-pages.ts'))};
      let deals = [{ slug: 'a' }, { slug: 'b' }];
      const site = builtSite({ version: 'v1', deals, startups: [] });
      // As the process does before it replaces the catalog.
      site.settle();
      const first = new WeakRef(deals[0]);
      deals = undefined;
      await new Promise((resolve) => setTimeout(resolve, 0));
      globalThis.gc();
      console.log(JSON.stringify({ collected: first.deref() === undefined, slugs: [...site.dealSlugs] }));`;
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ collected: true, slugs: ['a', 'b'] });
  });

  test('listings replaced by a pull: every listing page is live, a removed one is gone', () => {
    const [kept, dropped] = built.startups as [Catalog['startups'][0], Catalog['startups'][0]];
    // A rebuild from the pulled tree: new records (new objects), one listing fewer.
    const pulled = createCatalog({ ...built, version: 'pulled', startups: built.startups.filter((s) => s !== dropped).map((s) => ({ ...s })) }, postings);
    expect(changedPage(`/startups/${kept.slug}/`, site, pulled, NO_LOGOS)).toMatchObject({ page: { kind: 'startup', startup: { slug: kept.slug } } });
    expect(changedPage(`/startups/${dropped.slug}/`, site, pulled, NO_LOGOS)).toEqual({ kind: 'gone' });
  });

  test('a logo changed since the build: every catalog page is live (a record page shows its related records’ cards too)', () => {
    const [first, second] = built.deals as [Catalog['deals'][0], Catalog['deals'][0]];
    const logos = { stamp: '-logos-abc' };
    expect(changedPage(`/deals/${first.slug}/`, site, built, logos)).toMatchObject({ page: { kind: 'deal', deal: { slug: first.slug } } });
    expect(changedPage(`/deals/${second.slug}/`, site, built, logos)).toMatchObject({ page: { kind: 'deal', deal: { slug: second.slug } } });
    expect(changedPage(`/startups/${built.startups[0]?.slug}/`, site, built, logos)).toMatchObject({ page: { kind: 'startup' } });
    expect(changedPage('/', site, built, logos)).toMatchObject({ page: { kind: 'home' } });
    expect(changedPage(`/categories/${first.category}/`, site, built, logos)).toMatchObject({ page: { kind: 'category' } });
    expect(changedPage('/about/', site, built, logos)).toBeUndefined();
  });
});
