/**
 * Stage 2: validate parsed content with the zod schemas, then the rules that span files:
 * unique slugs and ids, known categories and sources, passed expiry dates and deadlines, and
 * program facts on a commercial deal (warnings). Every problem of every file is found in one
 * pass (issue 16, item 7): the rules that span files also run on the valid fields of an entry
 * that failed its schema, so an unknown category shows up beside a missing title, not after.
 */
import type * as z from 'zod';
import { CategoriesFileSchema, type CategoriesFile } from '../schemas/category.ts';
import { DealSchema, type Deal } from '../schemas/deal.ts';
import { SiteFileSchema, type Site } from '../schemas/site.ts';
import { StartupSchema, type Startup } from '../schemas/startup.ts';
import { SynonymsFileSchema, type SynonymsFile } from '../schemas/synonyms.ts';
import { foldWords } from '../catalog/fold.ts';
import { DEFAULT_FRESHNESS, staleness } from '../catalog/freshness.ts';
import { cut, shown, shownList, type Diagnostic, type StageResult } from './diagnostics.ts';
import { issueMessage, issuePath } from './issue-message.ts';
import { didYouMean, fieldNamesAt } from './suggest.ts';
import { entryRecord, type ParsedEntry } from './parse.ts';

/** A validated record with the file it came from. */
export interface Located<T> {
  path: string;
  record: T;
}

/** Validate one YAML document (site or categories) against its schema. */
export function validateDocument<S extends z.ZodType>(schema: S, path: string, data: unknown, keyLines: Map<string, number>): StageResult<z.output<S> | undefined> {
  const result = schema.safeParse(data);
  if (result.success) return { value: result.data, diagnostics: [] };
  return { value: undefined, diagnostics: issuesToDiagnostics(schema, result.error, data, path, keyLines) };
}

/** The site file, with `baseUrl` filled in from `defaultBaseUrl` when the file leaves it out. */
export function validateSite(path: string, data: unknown, keyLines: Map<string, number>, defaultBaseUrl: string): StageResult<Site | undefined> {
  const { value, diagnostics } = validateDocument(SiteFileSchema, path, data, keyLines);
  return { value: value && { ...value, baseUrl: value.baseUrl ?? defaultBaseUrl }, diagnostics };
}

export const validateCategories = (path: string, data: unknown, keyLines: Map<string, number>): StageResult<CategoriesFile | undefined> => {
  const result = validateDocument(CategoriesFileSchema, path, data, keyLines);
  if (!result.value) return result;
  const all = [...result.value.deals, ...result.value.startups, ...result.value.sources];
  const diagnostics = duplicates(
    [
      ...result.value.deals.map((c) => ({ key: `deals:${c.slug}`, path, label: `deals slug ${shown(c.slug)}` })),
      ...result.value.startups.map((c) => ({ key: `startups:${c.slug}`, path, label: `startups slug ${shown(c.slug)}` })),
      ...result.value.sources.map((c) => ({ key: `sources:${c.slug}`, path, label: `sources slug ${shown(c.slug)}` })),
    ],
    'duplicate_category',
  );
  return { value: all.length ? result.value : undefined, diagnostics };
};

/**
 * Validate `synonyms.yaml`: the schema, then that no term is repeated in a group (after folding
 * case, accents and punctuation, as queries are) and that no term is in two two-way groups
 * (the groups would silently merge; the editor should merge them).
 */
export const validateSynonyms = (path: string, data: unknown, keyLines: Map<string, number>): StageResult<SynonymsFile | undefined> => {
  // An empty file (only comments) is no synonyms, not an error.
  const result = validateDocument(SynonymsFileSchema, path, data ?? {}, keyLines);
  if (!result.value) return result;
  const diagnostics: Diagnostic[] = [];
  const groupOf = new Map<string, number>();
  result.value['two-way'].forEach((group, g) => {
    const seen = new Set<string>();
    group.forEach((term, t) => {
      const folded = foldWords(term).join(' ');
      const field = `two-way.${g}.${t}`;
      const line = keyLines.get('two-way');
      if (seen.has(folded)) {
        diagnostics.push(error(path, 'duplicate_synonym', field, `${shown(term)} is already in this group`, line));
      } else if (groupOf.has(folded)) {
        diagnostics.push(error(path, 'duplicate_synonym', field, `${shown(term)} is already in group ${groupOf.get(folded)} (two-way.${groupOf.get(folded)}); merge the two groups`, line));
      }
      seen.add(folded);
      if (!groupOf.has(folded)) groupOf.set(folded, g);
    });
  });
  for (const [from, targets] of Object.entries(result.value['one-way'])) {
    const folded = foldWords(from).join(' ');
    if (targets.some((t) => foldWords(t).join(' ') === folded)) {
      diagnostics.push(error(path, 'duplicate_synonym', `one-way.${from}`, `${shown(from)} lists itself`, keyLines.get('one-way')));
    }
  }
  return { value: diagnostics.length ? undefined : result.value, diagnostics };
};

/** What a kind's rules need beyond the entry: the categories (absent while categories.yaml is invalid), today, the freshness limit. */
export interface RuleContext {
  categories: CategoriesFile | undefined;
  today: string;
  maxAgeDays?: number | undefined;
}

/** Checks made on an entry after its schema: given the fields that passed, they add their problems. */
export type EntryRules<T> = (checked: Located<Partial<T>>, lineOf: (key: string) => number | undefined, diagnostics: Diagnostic[]) => void;

/**
 * Validate deal entries: schema, unique slug and id, known category, expiry, deadline,
 * staleness (a `verified` deal checked more than `maxAgeDays` ago) and program-fact warnings. Without `categories` (categories.yaml itself is invalid) the category
 * rules wait for it.
 */
export function validateDeals(entries: Iterable<ParsedEntry>, categories: CategoriesFile | undefined, today: string, maxAgeDays = DEFAULT_FRESHNESS.maxAgeDays): StageResult<Located<Deal>[]> {
  return validateEach(entries, DealSchema, dealRules({ categories, today, maxAgeDays }));
}

/** Validate startup entries: schema, unique slug and id, known category and source (once categories.yaml is valid). */
export function validateStartups(entries: Iterable<ParsedEntry>, categories: CategoriesFile | undefined): StageResult<Located<Startup>[]> {
  return validateEach(entries, StartupSchema, startupRules({ categories }));
}

/** A deal's rules after its schema: known category, expiry, staleness, deadline, program facts on a commercial deal. */
export function dealRules({ categories, today, maxAgeDays = DEFAULT_FRESHNESS.maxAgeDays }: RuleContext): EntryRules<Deal> {
  const slugs = categories?.deals.map((c) => c.slug);
  const programs = new Set(categories?.deals.filter((c) => c.scope === 'programs').map((c) => c.slug));
  return ({ path, record }, lineOf, diagnostics) => {
    const category = record.category;
    const known = slugs === undefined || category === undefined || slugs.includes(category);
    if (!known) diagnostics.push(unknown(path, 'unknown_category', 'category', category, slugs, lineOf('category')));
    if (record.expiryDate && record.status && record.expiryDate < today && record.status !== 'expired') {
      diagnostics.push({
        severity: 'warning',
        code: 'expiry_passed',
        file: path,
        field: 'expiryDate',
        line: lineOf('expiryDate'),
        message: `${record.expiryDate} has passed but status is \`${record.status}\`; set status to \`expired\` or move the date`,
      });
    }
    const stale = record.verified ? staleness(record, today, maxAgeDays) : undefined;
    if (stale) {
      const field = record.lastVerified ? 'lastVerified' : 'verified';
      const since = stale.checkedOn ? `last checked ${stale.checkedOn} (${stale.days} days ago, more than ${maxAgeDays})` : 'never dated';
      diagnostics.push(warning(path, 'verification_stale', field, `marked verified but ${since}; check it against the source and set \`lastVerified\`, or set \`verified\` to false`, lineOf(field)));
    }
    if (record.nextDeadline && record.nextDeadline < today && record.status !== 'expired') {
      const field = 'nextDeadline';
      diagnostics.push(warning(path, 'deadline_passed', field, `${record.nextDeadline} has passed; set the next deadline, remove it, or set status to \`expired\``, lineOf(field)));
    }
    // The program facts describe programs: on a commercial deal they are most likely a slip.
    const programFacts = PROGRAM_FACTS.filter((f) => record[f] !== undefined);
    const first = programFacts[0];
    if (first !== undefined && slugs !== undefined && category !== undefined && known && !programs.has(category)) {
      const message = `${shownList(programFacts, ', ')} describe programs, but category ${shown(category)} is in the \`deals\` scope; remove them or choose a program category`;
      diagnostics.push(warning(path, 'program_fact_on_deal', first, message, lineOf(first)));
    }
  };
}

/** A startup's rules after its schema: known category and source. */
export function startupRules({ categories }: Pick<RuleContext, 'categories'>): EntryRules<Startup> {
  const knownCategories = categories?.startups.map((c) => c.slug);
  const knownSources = categories?.sources.map((s) => s.slug);
  return ({ path, record }, lineOf, diagnostics) => {
    if (knownCategories && record.category !== undefined && !knownCategories.includes(record.category)) {
      diagnostics.push(unknown(path, 'unknown_category', 'category', record.category, knownCategories, lineOf('category'), '(none defined in categories.yaml `startups`)'));
    }
    if (knownSources && record.source !== undefined && !knownSources.includes(record.source)) {
      diagnostics.push(unknown(path, 'unknown_source', 'source', record.source, knownSources, lineOf('source'), '(none defined in categories.yaml `sources`)'));
    }
  };
}

/** One entry after its schema and rules: its record when the schema passed (not yet detached from its file), its problems, and the keys it claims. */
export interface EntryCheck<T> {
  path: string;
  record: T | undefined;
  schemaProblems: Diagnostic[];
  ruleProblems: Diagnostic[];
  keys: RecordKeys;
}

/**
 * Check one entry by `schema`, then by `rules`, which also see the fields that passed of an
 * entry that failed: the part of validation that needs no other file, so it can run anywhere
 * (the build runs it in worker threads for big catalogs, check-in-workers.ts).
 */
export function checkEntry<S extends z.ZodType>(entry: ParsedEntry, schema: S, rules: EntryRules<z.output<S>>): EntryCheck<z.output<S>> {
  const input = entryRecord(entry);
  const result = schema.safeParse(input);
  const ruleProblems: Diagnostic[] = [];
  let schemaProblems: Diagnostic[] = [];
  let checked: Located<Partial<z.output<S>>>;
  if (result.success) {
    checked = { path: entry.path, record: result.data };
  } else {
    schemaProblems = issuesToDiagnostics(schema, result.error, input, entry.path, entry.keyLines);
    // The fields with no issue of their own are as the schema reads them (a slug, an id, a date).
    const failed = new Set(result.error.issues.map((issue) => issue.path[0]));
    const fields = Object.entries(input).filter(([key]) => !failed.has(key));
    checked = { path: entry.path, record: Object.fromEntries(fields) as Partial<z.output<S>> };
  }
  rules(checked, (key) => entry.keyLines.get(key), ruleProblems);
  const { id, slug } = checked.record as { id?: string; slug?: string };
  return { path: entry.path, record: result.success ? result.data : undefined, schemaProblems, ruleProblems, keys: { path: entry.path, id, slug, idLine: entry.keyLines.get('id') } };
}

export interface ChecksCollector<T> {
  add: (check: EntryCheck<T>) => void;
  result: () => StageResult<Located<T>[]>;
}

/**
 * Entries' checks gathered into the stage's result, in the order of a whole pass per stage:
 * schema problems, rule problems, then slugs and ids for uniqueness. `add` takes a check whose
 * record is already detached from its file (or was never attached: parsed from JSON).
 */
export function checksCollector<T>(): ChecksCollector<T> {
  const value: Located<T>[] = [];
  const schemaProblems: Diagnostic[] = [];
  const ruleProblems: Diagnostic[] = [];
  const keys: RecordKeys[] = [];
  return {
    add(check) {
      if (check.record !== undefined) value.push({ path: check.path, record: check.record });
      for (const problem of check.schemaProblems) schemaProblems.push(problem);
      for (const problem of check.ruleProblems) ruleProblems.push(problem);
      keys.push(check.keys);
    },
    result: () => ({ value, diagnostics: [...schemaProblems, ...ruleProblems, ...uniqueness(keys)] }),
  };
}

// --- internal ---

const MAX_FILES_LISTED = 5;
/** Up to this many unknown keys in one place are reported one by one. */
const MAX_KEYS_SPLIT = 10;
/** The Deal fields that only programs carry (schemas/program.ts). */
const PROGRAM_FACTS = ['equityPercent', 'stages', 'regions', 'nextDeadline'] as const;

/**
 * Each entry checked (`checkEntry`) and let go: only the records, detached from their files,
 * and each file's keys are kept (at 150,000 files the parsed front matter is hundreds of MB).
 */
function validateEach<S extends z.ZodType>(entries: Iterable<ParsedEntry>, schema: S, rules: EntryRules<z.output<S>>): StageResult<Located<z.output<S>>[]> {
  const collector = checksCollector<z.output<S>>();
  for (const entry of entries) {
    const check = checkEntry(entry, schema, rules);
    collector.add({ ...check, record: check.record === undefined ? undefined : detached(check.record) });
  }
  return collector.result();
}

/**
 * A record that holds on to nothing of its file: the parsers hand out strings as slices of the
 * file's text, and a slice keeps the whole text alive (at 150,000 records, 117 MB of file texts
 * stayed in memory through the build; docs/performance.md). The record is JSON data, which is
 * what `catalog.json` holds and the server reads, so a JSON round trip gives the same record.
 */
function detached<T>(record: T): T {
  return JSON.parse(JSON.stringify(record)) as T;
}

function issuesToDiagnostics(schema: z.ZodType, error: z.ZodError, input: unknown, path: string, keyLines: Map<string, number>): Diagnostic[] {
  return error.issues.flatMap(oneUnknownKeyEach).map((issue) => {
    const fullField = issuePath(issue) || '(root)';
    const topKey = fullField.split('.')[0] ?? fullField;
    // The path can hold an unknown key, which is user text of any length.
    const field = cut(fullField);
    const names = issue.code === 'unrecognized_keys' ? fieldNamesAt(schema, issue.path) : [];
    const diagnostic: Diagnostic = { severity: 'error', code: issue.code, file: path, field, message: issueMessage(issue, input, names) };
    const line = keyLines.get(topKey);
    if (line !== undefined) diagnostic.line = line;
    // The slug comes from the file name, the description from the body: say so.
    if (topKey === 'slug') diagnostic.message += ' (the slug is the file name)';
    return diagnostic;
  });
}

/**
 * A few unknown keys are a few typos: one problem each, on its own line, with a suggestion.
 * Many are something else (a pasted block): one problem listing some (security review, issue 11).
 */
function oneUnknownKeyEach(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'unrecognized_keys' || issue.keys.length < 2 || issue.keys.length > MAX_KEYS_SPLIT) return [issue];
  return issue.keys.map((key) => ({ ...issue, keys: [key] }));
}

/** An unknown category or source: the allowed ones, and the one probably meant. */
function unknown(file: string, code: string, field: string, value: string, allowed: readonly string[], line: number | undefined, none = ''): Diagnostic {
  return error(file, code, field, `expected one of ${shownList(allowed) || none}, got ${shown(value)}${didYouMean(value, allowed)}`, line);
}

interface Keyed {
  key: string;
  path: string;
  label: string;
  /** Where the problem is reported in the file, when known. */
  line?: number | undefined;
}

/** One error per repeated key, naming every file that uses it. */
function duplicates(items: readonly Keyed[], code: string): Diagnostic[] {
  const byKey = new Map<string, Keyed[]>();
  for (const item of items) byKey.set(item.key, [...(byKey.get(item.key) ?? []), item]);
  const diagnostics: Diagnostic[] = [];
  for (const group of byKey.values()) {
    if (group.length < 2) continue;
    const paths = [...new Set(group.map((g) => g.path))];
    // Thousands of files with one id must not print thousands of paths on each of them.
    const files = paths.length > MAX_FILES_LISTED ? `${paths.slice(0, MAX_FILES_LISTED).join(' and ')} and ${paths.length - MAX_FILES_LISTED} more` : paths.join(' and ');
    for (const item of group) {
      const diagnostic: Diagnostic = { severity: 'error', code, file: item.path, field: item.label.split(' ')[0], message: `${item.label} is used more than once (${files})` };
      if (item.line !== undefined) diagnostic.line = item.line;
      diagnostics.push(diagnostic);
    }
  }
  return diagnostics;
}

/** The keys a file's record claims, for `uniqueness`. */
interface RecordKeys {
  path: string;
  id: string | undefined;
  slug: string | undefined;
  /** The line of the file's `id`, where a duplicate id is reported. */
  idLine: number | undefined;
}

function uniqueness(records: readonly RecordKeys[]): Diagnostic[] {
  const ids = duplicates(
    records.flatMap(({ path, id, idLine }) => (id === undefined ? [] : [{ key: id, path, label: `id ${shown(id)}`, line: idLine }])),
    'duplicate_id',
  );
  const slugs = duplicates(
    records.flatMap(({ path, slug }) => (slug === undefined ? [] : [{ key: slug, path, label: `slug ${shown(slug)}` }])),
    'duplicate_slug',
  );
  return [...ids, ...slugs];
}

function error(file: string, code: string, field: string, message: string, line: number | undefined): Diagnostic {
  const diagnostic: Diagnostic = { severity: 'error', code, file, field, message };
  if (line !== undefined) diagnostic.line = line;
  return diagnostic;
}

function warning(file: string, code: string, field: string, message: string, line: number | undefined): Diagnostic {
  return { severity: 'warning', code, file, field, message, ...(line === undefined ? {} : { line }) };
}
