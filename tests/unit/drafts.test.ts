/**
 * The drafts rule (issue 16, item 2) in the content pipeline: a deal or startup with
 * `draft: true` is validated like any record, then kept out of every public artefact the build
 * makes (catalog, search index, stats, sitemap, llms files, Markdown twins, the site's
 * `catalog.json`) and written apart (`drafts.json`) for the admin; the in-process re-index
 * after a write applies the same rule, both ways.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { llmsFullTxt, llmsTxt } from '../../src/agents/llms.ts';
import { twinFor } from '../../src/agents/markdown-twins.ts';
import { sitemapXml } from '../../src/agents/sitemap.ts';
import { createCatalog, withChangedDeals, withChangedStartups, type Catalog } from '../../src/catalog/catalog.ts';
import { listDeals } from '../../src/catalog/deals-query.ts';
import { listStartups } from '../../src/catalog/startups-query.ts';
import { runPipeline, type BuiltCatalog } from '../../src/pipeline/build.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { emitCatalog, precomputedStats } from '../../src/pipeline/emit.ts';
import { CATALOG_FILE, DRAFTS_FILE, SEARCH_INDEX_FILE, SEARCH_POSTINGS_FILE, STATS_FILE } from '../../src/pipeline/generated-files.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { STARTUP_FILES } from '../../src/pipeline/record-files.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';
import { nextCatalog } from '../../functions/store/next-catalog.ts';
import { GitStore } from '../../functions/store/git-store.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import type { Startup } from '../../src/schemas/startup.ts';
import { FIXTURES } from '../helpers/server.ts';
import { lunrJsonText } from '../helpers/lunr-reference.ts';

const TODAY = '2026-11-21';
/** Words found nowhere else in the fixture, so any trace of a draft shows. */
const DEAL_WORD = 'quokkadraft';
const STARTUP_WORD = 'wombatdraft';

const draftDeal = `---\nid: d-draft0001\ntitle: ${DEAL_WORD} cloud credits\nprovider: ${DEAL_WORD} Cloud\ncategory: cloud-credits\nstatus: active\napplicationUrl: https://${DEAL_WORD}.example/apply\nlastUpdated: '2026-11-01'\ndraft: true\n---\nA ${DEAL_WORD} deal still being written.\n`;
const draftStartup = `---\nid: s-draft0001\nname: ${STARTUP_WORD} Labs\ncategory: saas\nforSale: true\ndraft: true\n---\nA ${STARTUP_WORD} listing still being written.\n`;
/** `draft: false` is a published deal, written out or not. */
const publishedDeal = `---\nid: d-pub00001\ntitle: Kestrel credits\nprovider: Kestrel\ncategory: cloud-credits\nstatus: active\napplicationUrl: https://kestrel.example/apply\ndraft: false\n---\n`;

/** The `valid` fixture with a draft deal, a draft startup and a deal marked `draft: false`. */
async function built(): Promise<BuiltCatalog> {
  const sources = await readContent(join(FIXTURES, 'valid'));
  const deals = [...sources.deals, { path: 'valid/deals/quokka-draft.md', text: draftDeal }, { path: 'valid/deals/kestrel-credits.md', text: publishedDeal }];
  const startups = [...sources.startups, { path: 'valid/startups/wombat-draft.md', text: draftStartup }];
  const result = runPipeline({ ...sources, deals, startups }, { today: TODAY });
  if (!result.value) throw new Error(JSON.stringify(result.diagnostics));
  return result.value;
}

/** Each indexed document's position names the record with its ref (removed ones none): checked one by one, or by a map once they are out of step. */
function expectPositionsOfRefs(catalog: Catalog): void {
  for (const [search, records] of [
    [catalog.dealSearch, catalog.deals],
    [catalog.startupSearch, catalog.startups],
  ] as const) {
    const { refs, removed } = search.index;
    const named = Array.from(search.positions, (position, i) => (removed?.[i] === 1 && position === -1 ? refs[i] : records[position]?.id));
    expect(named).toEqual(refs);
  }
}

const searchDeals = (catalog: Catalog, search: string) => listDeals(catalog, { search, status: 'all', scope: 'all' }).positions.map((p) => catalog.deals[p]?.slug);

describe('the build', () => {
  test('keeps drafts out of the published records and lists them apart; `draft: false` is published without the key', async () => {
    const { data } = await built();
    expect(data.deals.map((d) => d.slug)).not.toContain('quokka-draft');
    expect(data.startups.map((s) => s.slug)).not.toContain('wombat-draft');
    expect(data.drafts?.deals.map((d) => d.slug)).toEqual(['quokka-draft']);
    expect(data.drafts?.startups.map((s) => s.slug)).toEqual(['wombat-draft']);
    const kestrel = data.deals.find((d) => d.slug === 'kestrel-credits');
    expect(kestrel).toBeDefined();
    expect(kestrel && 'draft' in kestrel).toBe(false);
  });

  test('no public artefact names a draft: search index, stats, sitemap, llms files, Markdown twins', async () => {
    const value = await built();
    const catalog = createCatalog(value.data, value.postings);
    expect(searchDeals(catalog, DEAL_WORD)).toEqual([]);
    expect(listStartups(catalog, { search: STARTUP_WORD }).positions).toEqual([]);
    const lunrText = lunrJsonText(value.postings.deals, value.termIndexes.deals) + lunrJsonText(value.postings.startups, value.termIndexes.startups);
    expect(lunrText).toContain('"invertedIndex"');
    expect(lunrText).not.toMatch(new RegExp(`${DEAL_WORD}|${STARTUP_WORD}|draft0001`));
    expect(JSON.stringify(value.postings)).not.toMatch(new RegExp(`${DEAL_WORD}|${STARTUP_WORD}|draft0001`));

    const stats = precomputedStats(value.data);
    expect(stats.allStatuses.all?.total).toBe(value.data.deals.length);
    expect(stats.startups).toBe(value.data.startups.length);

    for (const text of [sitemapXml(catalog), llmsTxt(catalog), llmsFullTxt(catalog), twinFor('/deals/', catalog), twinFor('/startups/', catalog), twinFor('/', catalog)]) {
      expect(text).toBeDefined();
      expect(text).not.toMatch(new RegExp(`${DEAL_WORD}|${STARTUP_WORD}|quokka-draft|wombat-draft`, 'i'));
    }
    expect(twinFor('/deals/quokka-draft/', catalog)).toBeUndefined();
    expect(twinFor('/startups/wombat-draft/', catalog)).toBeUndefined();
    // Admin writes and previews find the draft; public lookups do not.
    expect(catalog.dealBySlug.has('quokka-draft')).toBe(false);
    expect(catalog.editable.dealBySlug.get('quokka-draft')?.id).toBe('d-draft0001');
  });

  test('writes drafts to drafts.json only: catalog.json (what the site is built from), the indexes and stats do not name them', async () => {
    const out = await mkdtemp(join(tmpdir(), 'drafts-emit-'));
    try {
      await emitCatalog(out, await built());
      for (const file of [CATALOG_FILE, SEARCH_INDEX_FILE, SEARCH_POSTINGS_FILE, STATS_FILE]) {
        expect(await readFile(join(out, file), 'utf8'), file).not.toMatch(new RegExp(`${DEAL_WORD}|${STARTUP_WORD}|draft0001`));
      }
      const drafts = JSON.parse(await readFile(join(out, DRAFTS_FILE), 'utf8')) as { deals: Deal[]; startups: unknown[] };
      expect(drafts.deals.map((d) => d.slug)).toEqual(['quokka-draft']);
      expect(drafts.startups).toHaveLength(1);
      // The server loads both: drafts for the admin, beside the public records.
      const loaded = await loadGeneratedCatalog(out);
      expect(loaded.dealBySlug.has('quokka-draft')).toBe(false);
      expect(loaded.drafts?.deals.map((d) => d.slug)).toEqual(['quokka-draft']);
      expect(loaded.editable.dealById.get('d-draft0001')?.slug).toBe('quokka-draft');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe('the re-index after a write', () => {
  /** The catalog after upserting `deal`, as the write path makes it. */
  function afterWrite(previous: Catalog, deal: Deal): Catalog {
    const next = new ContentSnapshot(previous).withDealChanges([deal], [], TODAY);
    if (!next.value) throw new Error(JSON.stringify(next.diagnostics));
    return withChangedDeals(previous, next.value.data, next.value.changed, next.value.removedIds);
  }

  test('publishing a draft puts it in the deals and the search index, without a `draft` key', async () => {
    const value = await built();
    const before = createCatalog(value.data, value.postings);
    const draft = before.editable.dealBySlug.get('quokka-draft') as Deal;
    const after = afterWrite(before, { ...draft, draft: false });
    expect(searchDeals(after, DEAL_WORD)).toEqual(['quokka-draft']);
    // The build's index is in the records' order; the new document is not.
    expect(Array.from(before.dealSearch.positions)).toEqual(before.deals.map((_, i) => i));
    expect(Array.from(after.dealSearch.positions)).not.toEqual(after.deals.map((_, i) => i));
    expectPositionsOfRefs(before);
    expectPositionsOfRefs(after);
    expect(after.drafts?.deals).toEqual([]);
    expect(after.dealBySlug.get('quokka-draft')).not.toHaveProperty('draft');
  });

  test('saving a published deal as a draft takes it out of the deals and the search index at once', async () => {
    const value = await built();
    const before = createCatalog(value.data, value.postings);
    const aws = before.dealBySlug.get('aws-activate') as Deal;
    expect(searchDeals(before, 'activate')).toContain('aws-activate');
    const after = afterWrite(before, { ...aws, draft: true });
    expectPositionsOfRefs(after);
    expect(after.dealBySlug.has('aws-activate')).toBe(false);
    expect(searchDeals(after, 'activate')).not.toContain('aws-activate');
    expect(after.drafts?.deals.map((d) => d.slug)).toContain('aws-activate');
    expect(sitemapXml(after)).not.toContain('/deals/aws-activate/');
    // Its id stays taken: another deal cannot claim it while it is a draft.
    const clash = new ContentSnapshot(after).withDealChanges([{ ...aws, slug: 'aws-again', draft: undefined }], [], TODAY);
    expect(clash.diagnostics.map((d) => d.code)).toContain('duplicate_id');
  });
});

describe('startups, through the same write path', () => {
  function afterStartupWrite(previous: Catalog, startup: Startup): Catalog {
    const next = new ContentSnapshot(previous).withChanges(STARTUP_FILES, [startup], [], TODAY);
    if (!next.value) throw new Error(JSON.stringify(next.diagnostics));
    return withChangedStartups(previous, next.value.data, next.value.changed, next.value.removedIds);
  }

  test('a startup saved as a draft leaves the startups and their search at once; published again, it is back without the key', async () => {
    const value = await built();
    const before = createCatalog(value.data, value.postings);
    const [first] = before.startups as [Startup];
    const word = first.name.split(/\s+/)[0] as string;
    expect(listStartups(before, { search: word }).positions.length).toBeGreaterThan(0);
    const drafted = afterStartupWrite(before, { ...first, draft: true });
    expect(drafted.startupBySlug.has(first.slug)).toBe(false);
    expect(drafted.startups.map((s) => s.slug)).not.toContain(first.slug);
    expect(listStartups(drafted, { search: word }).positions.map((p) => drafted.startups[p]?.slug)).not.toContain(first.slug);
    expect(drafted.editable.startupBySlug.get(first.slug)?.draft).toBe(true);
    expect(drafted.drafts?.startups.map((s) => s.slug)).toContain(first.slug);
    // The deals are untouched: the same array and answers.
    expect(drafted.deals).toBe(before.deals);

    const published = afterStartupWrite(drafted, { ...first, draft: false });
    expect(published.startupBySlug.get(first.slug)).not.toHaveProperty('draft');
    expect(published.drafts?.startups.map((s) => s.slug)).not.toContain(first.slug);
  });
});

describe('hand edits re-read file by file (npm run dev, SIGHUP, a pull)', () => {
  /** The catalog after the files in `texts` (by path under content/) changed on disk. */
  async function afterEdit(current: Catalog, texts: Record<string, string | undefined>): Promise<Catalog> {
    const store = { root: join(FIXTURES, 'valid'), read: (path: string) => Promise.resolve(texts[path]) };
    const next = await nextCatalog(current, Object.keys(texts), { store, today: TODAY, baseUrl: 'https://deals.example' });
    if (!next.catalog) throw new Error(JSON.stringify(next.diagnostics));
    return next.catalog;
  }

  test('a deal file saved with `draft: true` does not become public; removing the line publishes it', async () => {
    const value = await built();
    const before = createCatalog(value.data, value.postings);
    const text = draftDeal.replace('d-draft0001', 'd-hand0001');
    const drafted = await afterEdit(before, { 'deals/hand-draft.md': text });
    expect(drafted.dealBySlug.has('hand-draft')).toBe(false);
    expect(searchDeals(drafted, DEAL_WORD)).toEqual([]);
    expect(sitemapXml(drafted)).not.toContain('hand-draft');
    expect(drafted.editable.dealBySlug.get('hand-draft')?.id).toBe('d-hand0001');

    // An edit of the draft alone is taken in (the admin sees it), still not public.
    const edited = await afterEdit(drafted, { 'deals/hand-draft.md': text.replace('still being written', 'nearly written') });
    expect(edited).not.toBe(drafted);
    expect(edited.editable.dealBySlug.get('hand-draft')?.description).toContain('nearly written');
    expect(edited.dealBySlug.has('hand-draft')).toBe(false);

    const published = await afterEdit(edited, { 'deals/hand-draft.md': text.replace('draft: true\n', '') });
    expect(published.dealBySlug.get('hand-draft')?.id).toBe('d-hand0001');
    expect(searchDeals(published, DEAL_WORD)).toEqual(['hand-draft']);
    expect(published.drafts?.deals.map((d) => d.slug)).not.toContain('hand-draft');
  });

  test('a published deal or startup edited by hand into a draft leaves the public records', async () => {
    const value = await built();
    const before = createCatalog(value.data, value.postings);
    const deal = before.dealBySlug.get('aws-activate') as Deal;
    const [startup] = before.startups as [Startup];
    const dealText = `---\nid: ${deal.id}\ntitle: ${deal.title}\nprovider: ${deal.provider}\ncategory: ${deal.category}\nstatus: active\napplicationUrl: ${deal.applicationUrl}\ndraft: true\n---\n`;
    const afterDeal = await afterEdit(before, { 'deals/aws-activate.md': dealText });
    expect(afterDeal.dealBySlug.has('aws-activate')).toBe(false);
    expect(searchDeals(afterDeal, 'activate')).not.toContain('aws-activate');

    const startupText = `---\nid: ${startup.id}\nname: ${startup.name}\ncategory: ${startup.category}\ndraft: true\n---\n`;
    const afterStartup = await afterEdit(afterDeal, { [`startups/${startup.slug}.md`]: startupText });
    expect(afterStartup.startupBySlug.has(startup.slug)).toBe(false);
    expect(afterStartup.editable.startupBySlug.get(startup.slug)?.draft).toBe(true);
    // The draft deal stays a draft.
    expect(afterStartup.editable.dealBySlug.get('aws-activate')?.draft).toBe(true);
    expect(afterStartup.dealBySlug.has('aws-activate')).toBe(false);
  });
});

describe('a hand-saved file whose name the store will not read', () => {
  test('takes the whole build, which reports the name, instead of failing the incremental read', async () => {
    const root = await mkdtemp(join(tmpdir(), 'odd-name-'));
    await cp(join(FIXTURES, 'valid'), root, { recursive: true });
    await writeFile(join(root, 'deals', 'Acme Deal.md'), publishedDeal.replace(/^id: .*$/m, 'id: d-oddname01'));
    const value = await built();
    const next = await nextCatalog(createCatalog(value.data, value.postings), ['deals/Acme Deal.md'], { store: await GitStore.open(root), today: TODAY, baseUrl: 'https://deals.example' });
    expect(next.catalog).toBeUndefined();
    expect(next.diagnostics.map((d) => d.file).join(' ')).toContain('Acme Deal.md');
  });
});
