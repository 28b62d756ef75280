/**
 * The content pipeline over tiny content trees (STYLE 10): what an editor sees for each kind of
 * mistake. Diagnostic lines are pinned with inline snapshots (STYLE 11), so a wording change is a
 * visible diff. Paths are shown relative to tests/fixtures/content/.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { formatDiagnostic, hasErrors, sortDiagnostics, type Diagnostic } from '../../src/pipeline/diagnostics.ts';
import { parseEntry, parseYamlFile } from '../../src/pipeline/parse.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { FIXTURES } from '../helpers/server.ts';

const TODAY = '2026-11-21';

/** Run the whole pipeline over a fixture scenario. */
async function build(scenario: string) {
  const result = runPipeline(await readContent(join(FIXTURES, scenario)), { today: TODAY });
  const diagnostics = sortDiagnostics(result.diagnostics);
  return { value: result.value, diagnostics, lines: diagnostics.map(formatDiagnostic) };
}

/** The diagnostic for a file and field, which must exist exactly once. */
function only(diagnostics: readonly Diagnostic[], file: string, field: string): Diagnostic {
  const found = diagnostics.filter((d) => d.file === file && d.field === field);
  expect(found, `${file} ${field} in ${JSON.stringify(diagnostics)}`).toHaveLength(1);
  return found[0] as Diagnostic;
}

describe('valid', () => {
  test('builds with no diagnostics at all', async () => {
    const { value, lines } = await build('valid');
    expect(lines).toEqual([]);
    expect(value?.data.deals).toHaveLength(10);
    expect(value?.data.startups).toHaveLength(6);
  });
});

describe('unknown-category', () => {
  test('an unknown deal category is an error naming file, line, field and the allowed values', async () => {
    const { value, diagnostics, lines } = await build('unknown-category');
    expect(value).toBeUndefined();
    expect(hasErrors(diagnostics)).toBe(true);
    expect(only(diagnostics, 'unknown-category/deals/acme-tools.md', 'category')).toMatchObject({
      severity: 'error',
      code: 'unknown_category',
      line: 4,
    });
    expect(lines).toMatchInlineSnapshot(`
      [
        "unknown-category/deals/acme-tools.md:4 category: expected one of \`cloud-credits\` | \`saas-discounts\` | \`accelerators\`, got \`sass\`",
        "unknown-category/startups/widgetco.md:4 category: expected one of \`saas\` | \`ecommerce\`, got \`hardware\`",
        "unknown-category/startups/widgetco.md:5 source: expected one of \`acquire\` | \`direct\`, got \`flippa\`",
      ]
    `);
  });

  test('the valid deal beside it raises nothing', async () => {
    const { diagnostics } = await build('unknown-category');
    expect(diagnostics.filter((d) => d.file.endsWith('globex-cloud.md'))).toEqual([]);
  });
});

describe('duplicate-id', () => {
  test('two files with one id: an error on each, naming both files, at each id line', async () => {
    const { value, diagnostics, lines } = await build('duplicate-id');
    expect(value).toBeUndefined();
    expect(only(diagnostics, 'duplicate-id/deals/alpha.md', 'id')).toMatchObject({ severity: 'error', code: 'duplicate_id', line: 2 });
    expect(only(diagnostics, 'duplicate-id/deals/beta.md', 'id')).toMatchObject({ severity: 'error', code: 'duplicate_id', line: 3 });
    for (const d of diagnostics) {
      expect(d.message).toContain('duplicate-id/deals/alpha.md');
      expect(d.message).toContain('duplicate-id/deals/beta.md');
    }
    expect(lines).toMatchInlineSnapshot(`
      [
        "duplicate-id/deals/alpha.md:2 id: id \`d-dup00001\` is used more than once (duplicate-id/deals/alpha.md and duplicate-id/deals/beta.md)",
        "duplicate-id/deals/beta.md:3 id: id \`d-dup00001\` is used more than once (duplicate-id/deals/alpha.md and duplicate-id/deals/beta.md)",
      ]
    `);
  });
});

describe('expired', () => {
  test('a passed expiryDate with status active is a warning only: the catalog builds', async () => {
    const { value, diagnostics, lines } = await build('expired');
    expect(hasErrors(diagnostics)).toBe(false);
    expect(value?.data.deals.map((d) => d.slug).sort()).toEqual(['future-offer', 'old-offer', 'retired-offer']);
    // Status is never changed silently.
    expect(value?.data.deals.find((d) => d.slug === 'old-offer')?.status).toBe('active');
    expect(only(diagnostics, 'expired/deals/old-offer.md', 'expiryDate')).toMatchObject({ severity: 'warning', code: 'expiry_passed', line: 7 });
    expect(lines).toMatchInlineSnapshot(`
      [
        "expired/deals/old-offer.md:7 warning: expiryDate: 2020-01-31 has passed but status is \`active\`; set status to \`expired\` or move the date",
      ]
    `);
  });
});

describe('stale', () => {
  test('a verified deal checked longer ago than site.yaml freshness.maxAgeDays, or never dated, is a warning', async () => {
    const { value, diagnostics, lines } = await build('stale');
    expect(hasErrors(diagnostics)).toBe(false);
    expect(value?.data.deals).toHaveLength(5);
    expect(value?.data.site.freshness).toEqual({ maxAgeDays: 90, expiringWithinDays: 14 });
    expect(value?.data.deals.find((d) => d.slug === 'checked-long-ago')).toMatchObject({ lastVerified: '2026-06-01', sourceUrl: 'https://checkco.example.com/terms' });
    expect(lines).toMatchInlineSnapshot(`
      [
        "stale/deals/checked-long-ago.md:9 warning: lastVerified: marked verified but last checked 2026-06-01 (173 days ago, more than 90); check it against the source and set \`lastVerified\`, or set \`verified\` to false",
        "stale/deals/never-dated.md:8 warning: verified: marked verified but never dated; check it against the source and set \`lastVerified\`, or set \`verified\` to false",
        "stale/deals/updated-long-ago.md:8 warning: verified: marked verified but last checked 2026-01-15 (310 days ago, more than 90); check it against the source and set \`lastVerified\`, or set \`verified\` to false",
      ]
    `);
  });
});

describe('bad-yaml', () => {
  test('broken front matter is one error at the offending line; nothing is built', async () => {
    const { value, diagnostics, lines } = await build('bad-yaml');
    expect(value).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    // Line 4 is `  provider: Brokenco`, indented under `title:` by mistake.
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'invalid_yaml', file: 'bad-yaml/deals/broken.md', line: 4 });
    expect(lines).toMatchInlineSnapshot(`
      [
        "bad-yaml/deals/broken.md:4 front matter is not valid YAML: bad indentation of a mapping entry",
      ]
    `);
  });

  test('the line of a YAML error counts from the top of the file, whatever the error', () => {
    const lineOf = (text: string) => parseEntry({ path: 'content/deals/x.md', text }).diagnostics[0]?.line;
    // Each text has its mistake on line 3.
    expect(lineOf('---\nid: d-x00001\ntitle: A: B\nprovider: P\n---\n')).toBe(3);
    expect(lineOf('---\nid: d-x00001\nid: d-x00002\n---\n')).toBe(3);
    expect(lineOf('---\nid: d-x00001\n\ttitle: T\n---\n')).toBe(3);
    // A whole YAML file (categories.yaml, site.yaml) has no `---` line to skip.
    expect(parseYamlFile({ path: 'content/site.yaml', text: 'name: A\nbaseUrl: B\nname: C\n' }).diagnostics[0]?.line).toBe(3);
  });
});

describe('bad-fields', () => {
  test('every field problem of a file is reported, each with its line', async () => {
    const { value, diagnostics, lines } = await build('bad-fields');
    expect(value).toBeUndefined();
    const file = 'bad-fields/deals/bad.md';
    expect(only(diagnostics, file, 'title')).toMatchObject({ severity: 'error', message: expect.stringContaining('required') });
    expect(only(diagnostics, file, 'status')).toMatchObject({ severity: 'error', line: 5, message: expect.stringContaining('`ongoing`') });
    expect(only(diagnostics, file, 'applicationUrl')).toMatchObject({ severity: 'error', line: 6, message: expect.stringContaining('http') });
    expect(only(diagnostics, file, 'price')).toMatchObject({ severity: 'error', line: 7, message: expect.stringContaining('`price`') });
    expect(lines).toMatchInlineSnapshot(`
      [
        "bad-fields/deals/bad.md title: is required (string)",
        "bad-fields/deals/bad.md:5 status: expected one of \`active\` | \`expired\` | \`coming-soon\` | \`limited\`, got \`ongoing\`",
        "bad-fields/deals/bad.md:6 applicationUrl: expected an absolute http:// or https:// URL, got \`javascript:alert(1)\`",
        "bad-fields/deals/bad.md:7 price: unknown field \`price\`",
      ]
    `);
  });
});
