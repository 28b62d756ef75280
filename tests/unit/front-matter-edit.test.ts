/**
 * Writes that respect editors' files (issue 16, item 6): an admin change to a deal edits the
 * file the editor wrote, so comments, key order, quoting, blank lines and the body stay, and
 * a one-field edit is a one-line diff. Records come from the real parse → validate stages.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diffLines } from 'diff';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { dealFileText, editedDealFileText } from '../../src/pipeline/record-files.ts';
import { editMarkdown } from '../../src/pipeline/front-matter-edit.ts';
import { parseEntry } from '../../src/pipeline/parse.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { validateDeals } from '../../src/pipeline/validate.ts';
import { CategoriesFileSchema } from '../../src/schemas/category.ts';
import { DealFrontMatterSchema, type Deal } from '../../src/schemas/deal.ts';
import { FIXTURES } from '../helpers/server.ts';

const TODAY = '2026-11-21';
const ORDER = Object.keys(DealFrontMatterSchema.shape);
const CATEGORIES = CategoriesFileSchema.parse({
  deals: [{ slug: 'cloud-credits', name: 'Cloud credits', scope: 'deals' }],
  startups: [],
  sources: [],
});

/** Written by hand: comments (own line, end of line, aligned), odd quoting, its own key order, a flow and a block list. */
const HAND_WRITTEN = `---
# Checked with the provider on the phone; keep the groups.
"title": "AWS Activate Founders"
id: d-aws00001            # never derived from the file name
provider:   'Amazon Web Services'
category: cloud-credits   # a slug from categories.yaml

# Placement
status: active
featured: false           # paid placement ends in June
tags: [aws, cloud]
eligibility:
  - Self-funded startups  # no institutional round
  # the portfolio rule matters most
  - "In an Activate portfolio"
applicationUrl: HTTPS://AWS.amazon.com/startups/credits
expiryDate: 2027-06-30
lastUpdated: "2026-10-02"
---
AWS Activate gives startups credits  (two spaces kept).


Last paragraph, after two blank lines.
`;

/** The validated record a build reads from `text` (as the catalog holds it). */
function record(text: string, slug = 'aws-activate'): Deal {
  const parsed = parseEntry({ path: `content/deals/${slug}.md`, text });
  if (!parsed.value) throw new Error(JSON.stringify(parsed.diagnostics));
  const checked = validateDeals([parsed.value], CATEGORIES, TODAY);
  const deal = checked.value[0]?.record;
  if (!deal) throw new Error(JSON.stringify(checked.diagnostics));
  return deal;
}

/** The lines `after` removes from `before` and the lines it adds, as `git diff` counts them. */
function changedLines(before: string, after: string): { removed: string[]; added: string[] } {
  const removed: string[] = [];
  const added: string[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.removed) removed.push(...lines);
    if (part.added) added.push(...lines);
  }
  return { removed, added };
}

/** `HAND_WRITTEN` edited as an admin write edits it: from the record it holds to `change` applied. */
function adminEdit(change: Partial<Record<keyof Deal, unknown>>): string {
  const before = record(HAND_WRITTEN);
  const after = { ...before, ...change } as Record<string, unknown>;
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete after[key];
  return editedDealFileText(HAND_WRITTEN, before, record(dealFileText(after as Deal)));
}

describe('an admin edit of a hand-written deal file', () => {
  test('one field changed is a one-line diff: that line, in its own quoting, and nothing else', () => {
    const edited = adminEdit({ title: 'AWS Activate for Founders' });
    expect(changedLines(HAND_WRITTEN, edited)).toEqual({
      removed: ['"title": "AWS Activate Founders"'],
      added: ['"title": "AWS Activate for Founders"'],
    });
    expect(edited).toBe(HAND_WRITTEN.replace('"AWS Activate Founders"', '"AWS Activate for Founders"'));
  });

  test('a field with an end-of-line comment keeps the comment and its alignment', () => {
    const edited = adminEdit({ featured: true });
    expect(changedLines(HAND_WRITTEN, edited)).toEqual({
      removed: ['featured: false           # paid placement ends in June'],
      added: ['featured: true           # paid placement ends in June'],
    });
  });

  test('every comment survives several edits at once', () => {
    const edited = adminEdit({ status: 'limited', provider: 'AWS', tags: ['aws', 'cloud', 'credits'], valueUsd: 1000 });
    const comments = HAND_WRITTEN.split('\n').flatMap((line) => /#.*$/.exec(line) ?? []);
    expect(comments).toHaveLength(7);
    for (const comment of comments) expect(edited).toContain(comment);
    expect(changedLines(HAND_WRITTEN, edited)).toEqual({
      removed: ["provider:   'Amazon Web Services'", 'status: active', 'tags: [aws, cloud]'],
      added: ["provider:   'AWS'", 'valueUsd: 1000', 'status: limited', 'tags: [aws, cloud, credits]'],
    });
  });

  test('a removed field loses its line (with its own comment); the comment lines above it stay', () => {
    const edited = adminEdit({ expiryDate: undefined, tags: undefined });
    expect(changedLines(HAND_WRITTEN, edited)).toEqual({ removed: ['tags: [aws, cloud]', 'expiryDate: 2027-06-30'], added: [] });
    // A field with a default (`featured: false`) is the same deal written or left out: no change.
    expect(adminEdit({ featured: undefined })).toBe(HAND_WRITTEN);
    const status = editMarkdown(HAND_WRITTEN, { set: {}, remove: ['status'] }, { order: [] });
    expect(status).toBe(HAND_WRITTEN.replace('# Placement\nstatus: active\n', '# Placement\n'));
  });

  test('a new field goes after the field before it in schema order, written as new files write it', () => {
    const edited = adminEdit({ difficulty: 'easy', shortDescription: 'Credits: up to $1,000' });
    expect(changedLines(HAND_WRITTEN, edited)).toEqual({
      removed: [],
      added: ["shortDescription: 'Credits: up to $1,000'", 'difficulty: easy'],
    });
    expect(edited).toContain("category: cloud-credits   # a slug from categories.yaml\nshortDescription: 'Credits: up to $1,000'\n");
    expect(edited).toContain('expiryDate: 2027-06-30\ndifficulty: easy\n');
  });

  test("text that plain YAML would read as another type is quoted; the rest keeps the editor's style", () => {
    const edited = adminEdit({ title: 'true', provider: '2027' });
    expect(changedLines(HAND_WRITTEN, edited).added).toEqual(['"title": "true"', "provider:   '2027'"]);
    expect(record(edited)).toMatchObject({ title: 'true', provider: '2027' });
    const plain = adminEdit({ category: 'cloud-credits', expiryDate: '2027-12-31' });
    expect(changedLines(HAND_WRITTEN, plain).added).toEqual(['expiryDate: 2027-12-31']);
  });

  test('a list keeps its unchanged entries with their comments: one entry changed, added or removed is one line', () => {
    const changed = adminEdit({ eligibility: ['Self-funded startups', 'In the Activate portfolio'] });
    expect(changedLines(HAND_WRITTEN, changed)).toEqual({
      removed: ['  - "In an Activate portfolio"'],
      added: ['  - "In the Activate portfolio"'],
    });
    const added = adminEdit({ eligibility: ['Self-funded startups', 'In an Activate portfolio', 'Pre-seed'] });
    expect(changedLines(HAND_WRITTEN, added)).toEqual({ removed: [], added: ['  - Pre-seed'] });
    const removedFirst = adminEdit({ eligibility: ['In an Activate portfolio'] });
    expect(changedLines(HAND_WRITTEN, removedFirst)).toEqual({ removed: ['  - Self-funded startups  # no institutional round'], added: [] });
    expect(removedFirst).toContain('eligibility:\n  # the portfolio rule matters most\n  - "In an Activate portfolio"\n');
    expect(record(removedFirst).eligibility).toEqual(['In an Activate portfolio']);
  });

  test('the body stays byte for byte unless the description changed; then only the body changes', () => {
    const edited = adminEdit({ title: 'New title' });
    expect(edited.slice(edited.indexOf('\n---\n'))).toBe(HAND_WRITTEN.slice(HAND_WRITTEN.indexOf('\n---\n')));
    const described = adminEdit({ description: 'A new description.' });
    expect(described).toBe(`${HAND_WRITTEN.slice(0, HAND_WRITTEN.indexOf('\n---\n'))}\n---\nA new description.\n`);
  });

  test('Windows line endings stay Windows line endings', () => {
    const crlf = HAND_WRITTEN.replace(/\n/g, '\r\n');
    const before = record(crlf);
    const edited = editedDealFileText(crlf, before, { ...before, title: 'X', difficulty: 'hard' });
    expect(edited).toBe(crlf.replace('"AWS Activate Founders"', '"X"').replace('expiryDate: 2027-06-30\r\n', 'expiryDate: 2027-06-30\r\ndifficulty: hard\r\n'));
  });

  test('a list item YAML 1.2 would read as a number (`0o7`) is quoted, so the edit stays in place', () => {
    const edited = editMarkdown(HAND_WRITTEN, { set: { tags: ['', '0o7', '0o0'] }, remove: [] }, { order: ORDER });
    expect(edited).toBeDefined();
    expect(edited).toContain("['', '0o7', '0o0']");
  });

  test('any text and lists are edited in place (never the whole file anew), and read back exactly', () => {
    const fields = { title: fc.string({ unit: 'grapheme', maxLength: 30 }), provider: fc.string({ maxLength: 20 }), category: fc.string({ maxLength: 10 }) };
    const list = fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fc.record({ ...fields, tags: list, eligibility: list, subcategory: fc.string({ maxLength: 10 }) }), (set) => {
        const edited = editMarkdown(HAND_WRITTEN, { set, remove: [] }, { order: ORDER });
        // editMarkdown reads its result back and answers undefined unless it holds exactly `set`.
        return edited !== undefined && edited.endsWith(HAND_WRITTEN.slice(HAND_WRITTEN.indexOf('\n---\n')));
      }),
      { numRuns: 1000 },
    );
  });

  test('front matter that is not a block mapping is written anew, in the form of a new file', () => {
    const flow = "---\n{ id: d-flow0001, title: Flow, provider: P, category: cloud-credits, status: active, applicationUrl: 'https://example.com' }\n---\nBody\n";
    const before = record(flow, 'flow');
    const after = { ...before, title: 'Flow 2' };
    expect(editedDealFileText(flow, before, after)).toBe(dealFileText(after));
    expect(editMarkdown('no front matter', { set: { title: 'x' }, remove: [] }, { order: [] })).toBeUndefined();
  });
});

describe('the write path (ContentSnapshot, as record-writes.ts uses it)', () => {
  test('an update edits the file it is given and serves what that file holds; a create is a new file', async () => {
    const contentDir = join(FIXTURES, 'valid');
    const built = runPipeline(await readContent(contentDir), { today: TODAY, index: false });
    const snapshot = new ContentSnapshot(built.value!.data);
    const original = await readFile(join(contentDir, 'deals', 'aws-activate.md'), 'utf8');
    const aws = built.value!.data.deals.find((d) => d.slug === 'aws-activate') as Deal;
    const fresh = { ...aws, id: 'd-new00001', slug: 'fresh-deal', title: 'Fresh' };
    const next = snapshot.withDealChanges([{ ...aws, value: 'Up to $5,000 in AWS credits' }, fresh], [], TODAY, new Map([['aws-activate', original]]));
    expect(next.diagnostics).toEqual([]);
    const files = new Map(next.value!.files.map((f) => [f.slug, f.text]));
    expect(changedLines(original, files.get('aws-activate') as string)).toEqual({
      removed: ['value: Up to $1,000 in AWS credits'],
      added: ['value: Up to $5,000 in AWS credits'],
    });
    expect(files.get('fresh-deal')).toBe(dealFileText(next.value!.data.deals.find((d) => d.slug === 'fresh-deal') as Deal));
    expect(next.value!.data.deals.find((d) => d.slug === 'aws-activate')?.value).toBe('Up to $5,000 in AWS credits');
  });
});
