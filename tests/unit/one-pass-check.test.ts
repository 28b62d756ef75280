/**
 * `npm run check` in one pass (issue 16, item 7): every problem of every file at once, each
 * with the value, category or field name probably meant. Before, an unknown category or a
 * duplicate id waited until the file had no other error, and a bad site.yaml hid every deal.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { formatDiagnostic, sortDiagnostics } from '../../src/pipeline/diagnostics.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { didYouMean, fieldNamesAt } from '../../src/pipeline/suggest.ts';
import { CategoriesFileSchema } from '../../src/schemas/category.ts';
import { DealSchema } from '../../src/schemas/deal.ts';
import { FIXTURES } from '../helpers/server.ts';

describe('one pass over several bad files', () => {
  test('lists every problem of every file, with suggestions, and builds nothing', async () => {
    const result = runPipeline(await readContent(join(FIXTURES, 'one-pass')), { today: '2026-11-21', index: false });
    expect(result.value).toBeUndefined();
    expect(sortDiagnostics(result.diagnostics).map(formatDiagnostic)).toMatchInlineSnapshot(`
      [
        "one-pass/deals/first-copy.md:2 id: id \`d-dup00001\` is used more than once (one-pass/deals/first-copy.md and one-pass/deals/second-copy.md)",
        "one-pass/deals/second-copy.md:2 id: id \`d-dup00001\` is used more than once (one-pass/deals/first-copy.md and one-pass/deals/second-copy.md)",
        "one-pass/deals/second-copy.md:7 difficulty: expected one of \`easy\` | \`medium\` | \`hard\`, got \`hrad\`; did you mean \`hard\`?",
        "one-pass/deals/typos.md title: is required (string)",
        "one-pass/deals/typos.md:3 titel: unknown field \`titel\`; did you mean \`title\`?",
        "one-pass/deals/typos.md:5 category: expected one of \`cloud-credits\` | \`saas-discounts\` | \`accelerators\`, got \`sass-discounts\`; did you mean \`saas-discounts\`?",
        "one-pass/deals/typos.md:6 status: expected one of \`active\` | \`expired\` | \`coming-soon\` | \`limited\`, got \`actve\`; did you mean \`active\`?",
        "one-pass/site.yaml description: is required (string)",
        "one-pass/site.yaml:3 descripton: unknown field \`descripton\`; did you mean \`description\`?",
        "one-pass/startups/shop.md:4 category: expected one of \`saas\` | \`ecommerce\`, got \`ecommerse\`; did you mean \`ecommerce\`?",
        "one-pass/startups/shop.md:5 source: expected one of \`acquire\` | \`direct\`, got \`aquire\`; did you mean \`acquire\`?",
        "one-pass/startups/shop.md:6 revenu: unknown field \`revenu\`; did you mean \`revenue\`?",
      ]
    `);
  });

  test("a bad categories.yaml is reported with the deals' own problems; category rules wait for a valid list", async () => {
    const sources = await readContent(join(FIXTURES, 'one-pass'));
    const broken = { ...sources, categories: { path: sources.categories!.path, text: 'deals:\n  - slug: cloud-credits\n    nmae: Cloud\n' } };
    const lines = sortDiagnostics(runPipeline(broken, { today: '2026-11-21', index: false }).diagnostics).map(formatDiagnostic);
    expect(lines).toContain('one-pass/categories.yaml:1 deals.0.nmae: unknown field `nmae`; did you mean `name`?');
    expect(lines).toContain('one-pass/deals/typos.md:6 status: expected one of `active` | `expired` | `coming-soon` | `limited`, got `actve`; did you mean `active`?');
    expect(lines.filter((l) => l.includes(' category: '))).toEqual([]);
  });
});

describe('did you mean', () => {
  test.each([
    ['sass-discounts', ['cloud-credits', 'saas-discounts', 'accelerators'], '; did you mean `saas-discounts`?'],
    ['titel', ['id', 'title', 'provider'], '; did you mean `title`?'],
    ['Active', ['active', 'expired'], '; did you mean `active`?'],
    // Nothing near enough: no guess.
    ['sass', ['cloud-credits', 'saas-discounts'], ''],
    ['price', ['id', 'title', 'provider', 'value'], ''],
    ['x', ['y', 'z'], ''],
    ['UK', ['uk', 'us'], '; did you mean `uk`?'],
    ['', ['a'], ''],
  ] as const)('%j among %j', (value, candidates, expected) => {
    expect(didYouMean(value, candidates)).toBe(expected);
  });

  test("field names come from the schema at the problem's place", () => {
    expect(fieldNamesAt(DealSchema, [])).toEqual(expect.arrayContaining(['title', 'applicationUrl', 'equityPercent']));
    expect(fieldNamesAt(CategoriesFileSchema, ['deals', 0])).toEqual(expect.arrayContaining(['slug', 'name', 'scope']));
    expect(fieldNamesAt(DealSchema, ['tags', 0])).toEqual([]);
  });
});
