/**
 * `npm run check` as editors run it: `scripts/check.ts <contentDir>` in a child process, with
 * the Node that runs vitest (24, which runs .ts files as they are). One line per problem, exit 1
 * on errors only (DESIGN "Content model", STYLE 4).
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES } from '../helpers/server.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Run the check script on a content tree. */
function check(contentDir: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['scripts/check.ts', contentDir], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('check', () => {
  test('the valid fixture passes: exit 0, a summary line only', () => {
    const { status, stdout, stderr } = check(join(FIXTURES, 'valid'));
    expect(stderr).toBe('');
    expect(stdout).toBe('checked 10 deals and 6 startups: 0 error(s), 0 warning(s)\n');
    expect(status).toBe(0);
  });

  test('an unknown category fails: exit 1, one line per problem naming file, line and field', () => {
    const { status, stdout } = check(join(FIXTURES, 'unknown-category'));
    expect(status).toBe(1);
    expect(stdout).toMatchInlineSnapshot(`
      "unknown-category/deals/acme-tools.md:4 category: expected one of \`cloud-credits\` | \`saas-discounts\` | \`accelerators\`, got \`sass\`
      unknown-category/startups/widgetco.md:4 category: expected one of \`saas\` | \`ecommerce\`, got \`hardware\`
      unknown-category/startups/widgetco.md:5 source: expected one of \`acquire\` | \`direct\`, got \`flippa\`
      checked 2 deals and 1 startups: 3 error(s), 0 warning(s)
      "
    `);
  });

  test('bad fields fail, each field on its own line', () => {
    const { status, stdout } = check(join(FIXTURES, 'bad-fields'));
    expect(status).toBe(1);
    expect(stdout).toMatchInlineSnapshot(`
      "bad-fields/deals/bad.md title: is required (string)
      bad-fields/deals/bad.md:5 status: expected one of \`active\` | \`expired\` | \`coming-soon\` | \`limited\`, got \`ongoing\`
      bad-fields/deals/bad.md:6 applicationUrl: expected an absolute http:// or https:// URL, got \`javascript:alert(1)\`
      bad-fields/deals/bad.md:7 price: unknown field \`price\`
      checked 1 deals and 0 startups: 4 error(s), 0 warning(s)
      "
    `);
  });

  test('several bad files: every problem of every file in one run, each with the value or field meant', () => {
    const { status, stdout } = check(join(FIXTURES, 'one-pass'));
    expect(status).toBe(1);
    expect(stdout).toMatchInlineSnapshot(`
      "one-pass/deals/first-copy.md:2 id: id \`d-dup00001\` is used more than once (one-pass/deals/first-copy.md and one-pass/deals/second-copy.md)
      one-pass/deals/second-copy.md:2 id: id \`d-dup00001\` is used more than once (one-pass/deals/first-copy.md and one-pass/deals/second-copy.md)
      one-pass/deals/second-copy.md:7 difficulty: expected one of \`easy\` | \`medium\` | \`hard\`, got \`hrad\`; did you mean \`hard\`?
      one-pass/deals/typos.md title: is required (string)
      one-pass/deals/typos.md:3 titel: unknown field \`titel\`; did you mean \`title\`?
      one-pass/deals/typos.md:5 category: expected one of \`cloud-credits\` | \`saas-discounts\` | \`accelerators\`, got \`sass-discounts\`; did you mean \`saas-discounts\`?
      one-pass/deals/typos.md:6 status: expected one of \`active\` | \`expired\` | \`coming-soon\` | \`limited\`, got \`actve\`; did you mean \`active\`?
      one-pass/site.yaml description: is required (string)
      one-pass/site.yaml:3 descripton: unknown field \`descripton\`; did you mean \`description\`?
      one-pass/startups/shop.md:4 category: expected one of \`saas\` | \`ecommerce\`, got \`ecommerse\`; did you mean \`ecommerce\`?
      one-pass/startups/shop.md:5 source: expected one of \`acquire\` | \`direct\`, got \`aquire\`; did you mean \`acquire\`?
      one-pass/startups/shop.md:6 revenu: unknown field \`revenu\`; did you mean \`revenue\`?
      checked 3 deals and 1 startups: 12 error(s), 0 warning(s)
      "
    `);
  });

  test('a duplicate id fails and names both files', () => {
    const { status, stdout } = check(join(FIXTURES, 'duplicate-id'));
    expect(status).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines.slice(0, -1)).toEqual([
      'duplicate-id/deals/alpha.md:2 id: id `d-dup00001` is used more than once (duplicate-id/deals/alpha.md and duplicate-id/deals/beta.md)',
      'duplicate-id/deals/beta.md:3 id: id `d-dup00001` is used more than once (duplicate-id/deals/alpha.md and duplicate-id/deals/beta.md)',
    ]);
    expect(lines.at(-1)).toBe('checked 2 deals and 0 startups: 2 error(s), 0 warning(s)');
  });

  test('a passed expiry date is a warning: printed, but exit 0', () => {
    const { status, stdout } = check(join(FIXTURES, 'expired'));
    expect(stdout).toMatchInlineSnapshot(`
      "expired/deals/old-offer.md:7 warning: expiryDate: 2020-01-31 has passed but status is \`active\`; set status to \`expired\` or move the date
      checked 3 deals and 0 startups: 0 error(s), 1 warning(s)
      "
    `);
    expect(status).toBe(0);
  });

  test('broken YAML fails with the file and the offending line', () => {
    const { status, stdout } = check(join(FIXTURES, 'bad-yaml'));
    expect(status).toBe(1);
    expect(stdout).toContain('bad-yaml/deals/broken.md:');
    expect(stdout.split('\n')[0]).toBe('bad-yaml/deals/broken.md:4 front matter is not valid YAML: bad indentation of a mapping entry');
  });

  test('a bad synonyms.yaml fails with the file, line and field of each problem', () => {
    const { status, stdout } = check(join(FIXTURES, 'bad-synonyms'));
    expect(status).toBe(1);
    expect(stdout).toMatchInlineSnapshot(`
      "bad-synonyms/synonyms.yaml:3 two-way.1: expected array to have >=2 items, got \`["solo"]\`
      bad-synonyms/synonyms.yaml:8 one-way.grant: expected array to have >=1 items, got \`[]\`
      bad-synonyms/synonyms.yaml:11 typo: unknown field \`typo\`
      checked 0 deals and 0 startups: 3 error(s), 0 warning(s)
      "
    `);
  });

  test('a missing site.yaml fails, naming the file that is missing in the checked tree', async () => {
    const work = await mkdtemp(join(tmpdir(), 'check-missing-'));
    try {
      const tree = join(work, 'mysite');
      await cp(join(FIXTURES, 'valid'), tree, { recursive: true });
      await rm(join(tree, 'site.yaml'));
      const { status, stdout } = check(tree);
      expect(status).toBe(1);
      expect(stdout.split('\n')[0]).toBe(`${basename(tree)}/site.yaml file is missing`);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  test('a big catalog, checked in worker threads: every line reaches a pipe, the summary last', async () => {
    const work = await mkdtemp(join(tmpdir(), 'check-big-'));
    try {
      const tree = join(work, 'content');
      spawnSync(process.execPath, ['scripts/generate.ts', '--deals', '4000', '--startups', '200', '--out', tree, '--seed', '9'], { cwd: ROOT, stdio: 'ignore' });
      const { status, stdout } = check(tree);
      const lines = stdout.trimEnd().split('\n');
      // Generated deals include stale ones: hundreds of warning lines, more than a pipe holds at once.
      expect(stdout.length).toBeGreaterThan(128 * 1024);
      expect(lines.at(-1)).toBe(`checked 4000 deals and 200 startups: 0 error(s), ${lines.length - 1} warning(s)`);
      expect(status).toBe(0);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
