/**
 * Editors' synonyms (content/synonyms.yaml): the query rewriting (src/catalog/synonyms.ts), the
 * file's validation and diagnostics, and the way from the file through the pipeline into the
 * catalog and `listDeals` (DESIGN "search syntax").
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { listDeals } from '../../src/catalog/deals-query.ts';
import { foldWords } from '../../src/catalog/fold.ts';
import { compileSynonyms, expandQuery, MAX_VARIANTS, NO_SYNONYMS } from '../../src/catalog/synonyms.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { formatDiagnostic, sortDiagnostics } from '../../src/pipeline/diagnostics.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { contentJsonSchemas } from '../../src/schemas/json-schemas.ts';
import type { SynonymsFile } from '../../src/schemas/synonyms.ts';
import { FIXTURES } from '../helpers/server.ts';

const TODAY = '2026-11-21';
const ROOT = resolve(import.meta.dirname, '..', '..');

const table = compileSynonyms({
  'two-way': [
    ['yc', 'y combinator'],
    ['equity-free', 'no equity', 'without equity'],
    ['aws', 'amazon web services'],
    ['db', 'database'],
  ],
  'one-way': { 'non-dilutive': ['grant'] },
});

describe('expandQuery', () => {
  test('a two-way term is replaced by each of its synonyms, in both directions', () => {
    expect(expandQuery('yc demo day', table)).toEqual(['y combinator demo day']);
    expect(expandQuery('Y Combinator', table)).toEqual(['yc']);
    expect(expandQuery('free aws credits', table)).toEqual(['free amazon web services credits']);
    expect(expandQuery('amazon web services', table)).toEqual(['aws']);
  });

  test('multi-word terms match consecutive words, the longest first; case, accents, punctuation and endings are folded', () => {
    expect(expandQuery('accelerator without equity', table)).toEqual(['accelerator equity free', 'accelerator no equity']);
    expect(expandQuery('Équity-Free programs', table)).toEqual(['no equity programs', 'without equity programs']);
    // Stemmed like the index: `databases` is the term `database`.
    expect(expandQuery('managed databases', table)).toEqual(['managed db']);
  });

  test('one-way rules go one way only', () => {
    expect(expandQuery('non-dilutive funding', table)).toEqual(['grant funding']);
    expect(expandQuery('grant', table)).toEqual([]);
  });

  test('several matched terms: each replaced alone, then all at once', () => {
    expect(expandQuery('yc db', table)).toEqual(['y combinator db', 'yc database', 'y combinator database']);
  });

  test('no synonyms, no match, or no words: no alternatives', () => {
    expect(expandQuery('yc', NO_SYNONYMS)).toEqual([]);
    expect(expandQuery('notion discount', table)).toEqual([]);
    expect(expandQuery('', table)).toEqual([]);
    expect(expandQuery('!!!', table)).toEqual([]);
  });

  test('words already split are accepted as well as text', () => {
    expect(expandQuery(['YC', 'demo'], table)).toEqual(['y combinator demo']);
  });

  test('the number of alternatives is bounded, whatever the query', () => {
    const many = compileSynonyms({ 'two-way': [Array.from({ length: 10 }, (_, i) => `w${i}`)], 'one-way': {} });
    const query = Array.from({ length: 40 }, () => 'w0').join(' ');
    expect(expandQuery(query, many).length).toBeLessThanOrEqual(MAX_VARIANTS);
    // Nine synonyms of one word: only the first MAX_VARIANTS are searched.
    expect(expandQuery('w0', many)).toHaveLength(MAX_VARIANTS);
  });

  test('foldWords folds case, accents and punctuation', () => {
    expect(foldWords('Équity-free, café!')).toEqual(['equity', 'free', 'cafe']);
  });
});

describe('synonyms.yaml through the pipeline', () => {
  test('a bad file: one line per problem with file, line and field', async () => {
    const result = runPipeline(await readContent(join(FIXTURES, 'bad-synonyms')), { today: TODAY, index: false });
    expect(result.value).toBeUndefined();
    expect(sortDiagnostics(result.diagnostics).map(formatDiagnostic)).toMatchInlineSnapshot(`
      [
        "bad-synonyms/synonyms.yaml:3 two-way.1: expected array to have >=2 items, got \`["solo"]\`",
        "bad-synonyms/synonyms.yaml:8 one-way.grant: expected array to have >=1 items, got \`[]\`",
        "bad-synonyms/synonyms.yaml:11 typo: unknown field \`typo\`",
      ]
    `);
  });

  test('a term twice in a group, in two groups, or a rule to itself is an error (terms folded as queries are)', async () => {
    const sources = await readContent(join(FIXTURES, 'valid'));
    const text = ['two-way:', '  - [aws, AWS]', '  - [yc, y combinator]', '  - [Y-Combinator, accelerator]', 'one-way:', '  ai: [AI]', ''].join('\n');
    const result = runPipeline({ ...sources, synonyms: { path: 'valid/synonyms.yaml', text } }, { today: TODAY, index: false });
    expect(result.value).toBeUndefined();
    expect(sortDiagnostics(result.diagnostics).map(formatDiagnostic)).toMatchInlineSnapshot(`
      [
        "valid/synonyms.yaml:1 two-way.0.1: \`AWS\` is already in this group",
        "valid/synonyms.yaml:1 two-way.2.0: \`Y-Combinator\` is already in group 1 (two-way.1); merge the two groups",
        "valid/synonyms.yaml:5 one-way.ai: \`ai\` lists itself",
      ]
    `);
  });

  test('no synonyms.yaml: builds, no synonyms; an empty one (comments only) is no synonyms too', async () => {
    const sources = await readContent(join(FIXTURES, 'valid'));
    expect(sources.synonyms).toBeUndefined();
    const without = runPipeline(sources, { today: TODAY, index: false });
    expect(without.value?.data.synonyms).toBeUndefined();
    const empty = runPipeline({ ...sources, synonyms: { path: 'valid/synonyms.yaml', text: '# none yet\n' } }, { today: TODAY, index: false });
    expect(empty.diagnostics).toEqual([]);
    expect(empty.value?.data.synonyms).toEqual({ 'two-way': [], 'one-way': {} });
  });

  test('the synonyms are carried into the catalog, change its version, and listDeals finds a deal by a synonym only', async () => {
    const sources = await readContent(join(FIXTURES, 'valid'));
    const plain = runPipeline(sources, { today: TODAY });
    const deal = plain.value?.data.deals[0];
    if (!plain.value || !deal) throw new Error('the valid fixture builds');
    const word = 'zzqxsynonym';
    const text = `two-way:\n  - [${word}, ${JSON.stringify(deal.title)}]\n`;
    const withSynonyms = runPipeline({ ...sources, synonyms: { path: 'valid/synonyms.yaml', text } }, { today: TODAY });
    if (!withSynonyms.value) throw new Error(JSON.stringify(withSynonyms.diagnostics));
    expect(withSynonyms.value.data.synonyms).toEqual({ 'two-way': [[word, deal.title]], 'one-way': {} } satisfies SynonymsFile);
    expect(withSynonyms.value.data.version).not.toBe(plain.value.data.version);

    const query = { search: word, scope: 'all' as const, status: 'all' as const };
    const before = createCatalog(plain.value.data, plain.value.postings);
    expect(listDeals(before, query).positions).toEqual([]);
    const after = createCatalog(JSON.parse(JSON.stringify(withSynonyms.value.data)), withSynonyms.value.postings);
    const found = listDeals(after, query).positions.map((p) => after.deals[p]?.slug);
    expect(found).toContain(deal.slug);
  });

  test('the starter content/synonyms.yaml is valid and has the entries the issue asks for', async () => {
    const result = runPipeline(await readContent(join(ROOT, 'content')), { today: TODAY, index: false });
    expect(result.diagnostics.filter((d) => d.file.endsWith('synonyms.yaml'))).toEqual([]);
    const starter = compileSynonyms(result.value?.data.synonyms);
    expect(expandQuery('yc', starter)).toContain('y combinator');
    expect(expandQuery('accelerator without equity', starter)).toContain('accelerator equity free');
    expect(expandQuery('non-dilutive', starter)).toContain('grant');
    expect(expandQuery('gcp credits', starter)).toContain('google cloud credits');
    expect(expandQuery('preseed', starter)).toContain('pre seed');
    expect(readFileSync(join(ROOT, 'content', 'synonyms.yaml'), 'utf8')).toMatch(/^two-way:/m);
  });

  test('its JSON Schema is emitted for editors with the other content files', () => {
    const schema = contentJsonSchemas()['synonyms.json'] as { title: string; properties: Record<string, unknown> };
    expect(schema.title).toBe('Synonyms');
    expect(Object.keys(schema.properties)).toEqual(['two-way', 'one-way']);
  });
});
