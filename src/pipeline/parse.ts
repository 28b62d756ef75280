/**
 * Stage 1: parse content files. Markdown files are split by gray-matter (front matter,
 * Markdown body); the front matter and whole YAML files are read by `readYaml` (yaml.ts).
 * Parsing problems become diagnostics.
 *
 * Security review, issue 11, item 1: gray-matter picks a parser from the opening fence
 * (`---js`, `---javascript`, `---json`, `---coffee`…) and its JavaScript engine evaluates the
 * block with `require` in scope, so a pushed content file could run code in `check`, the
 * build or a running server's content sync. Only a bare `---` opens front matter here, and
 * gray-matter is never left to choose an engine.
 */
import matter from 'gray-matter';
import { cut, type Diagnostic, type StageResult } from './diagnostics.ts';
import { readYaml } from './yaml.ts';

/** A content file as read from disk. */
export interface SourceFile {
  /** Display path, such as `content/deals/aws-activate.md`. */
  path: string;
  text: string;
}

/** A parsed Markdown entry: front matter data, body, and the line of each top-level key. */
export interface ParsedEntry {
  path: string;
  /** File name without `.md`: the entry's slug. */
  slug: string;
  data: Record<string, unknown>;
  body: string;
  keyLines: Map<string, number>;
}

/**
 * Read YAML as content is read (core schema, no anchors or aliases), throwing on any problem.
 * Pipeline stages use `parseEntry` / `parseYamlFile`, which report diagnostics instead.
 * @example parseYaml('date: 2026-11-21') // { date: '2026-11-21' }
 */
export function parseYaml(text: string): unknown {
  const reading = readYaml(text);
  if (!reading.ok) throw new Error(`${reading.line === undefined ? '' : `line ${reading.line}: `}${reading.reason}`);
  return reading.data;
}

/** The opening line that starts front matter: `---`, then at most spaces, tabs and a CR. */
const BARE_FENCE = /^---[ \t]*\r?$/;

/** gray-matter's language aliases that name an executable engine (`lib/engine.js`). */
const EXECUTABLE_LANGUAGES = new Set(['js', 'javascript', 'coffee', 'coffeescript', 'cson']);

const refuseEngine = (language: string) => (): never => {
  throw new Error(`front matter in \`${language}\` is never evaluated`);
};

/**
 * gray-matter only splits the file. The opening line was checked to be a bare `---`, so its
 * language is the default `yaml`, whose engine here reads nothing (the text is read by
 * `readYaml`, from `file.matter`); every engine gray-matter ships or aliases is replaced by
 * one that throws, in case a fence ever got past the check. Options are always passed, so
 * gray-matter's cache (keyed by text, used only without options) never applies.
 */
const MATTER_OPTIONS = {
  language: 'yaml',
  engines: {
    yaml: () => ({}),
    javascript: refuseEngine('javascript'),
    js: refuseEngine('js'),
    json: refuseEngine('json'),
    coffee: refuseEngine('coffee'),
    coffeescript: refuseEngine('coffeescript'),
    cson: refuseEngine('cson'),
  },
};

/**
 * Parse one Markdown content file.
 * @example parseEntry({ path: 'content/deals/x.md', text: '---\nid: d-1\n---\nBody' })
 */
export function parseEntry(file: SourceFile): StageResult<ParsedEntry | undefined> {
  const slug = baseName(file.path);
  if (!file.text.startsWith('---')) {
    return fail(file.path, 'missing_front_matter', 'expected the file to start with `---` front matter');
  }
  const lineEnd = file.text.indexOf('\n');
  const opening = lineEnd === -1 ? file.text : file.text.slice(0, lineEnd);
  if (!BARE_FENCE.test(opening)) return fail(file.path, 'unsafe_front_matter', fenceMessage(opening), 1);
  let split: matter.GrayMatterFile<string>;
  try {
    split = matter(file.text, MATTER_OPTIONS);
  } catch (error) {
    return fail(file.path, 'invalid_front_matter', cut(`front matter could not be read: ${error instanceof Error ? error.message : String(error)}`), 1);
  }
  // `split.matter` runs from just after `---` to the closing fence: its line 1 is the file's
  // line 1. gray-matter cuts at `\n---`, leaving the CR of a CRLF file, which `yaml` would keep.
  const reading = readYaml(split.matter.replace(/\r$/, ''));
  if (!reading.ok) {
    const message = reading.code === 'invalid_yaml' ? `front matter is not valid YAML: ${reading.reason}` : `front matter ${reading.reason}`;
    return fail(file.path, reading.code, message, reading.line);
  }
  const { keyLines } = reading;
  // Empty (or `null`) front matter is an entry with no fields, as gray-matter had it: validation
  // then names each missing field.
  const data = reading.data ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    return fail(file.path, 'invalid_front_matter', 'expected front matter to be a YAML mapping of fields');
  }
  return {
    value: { path: file.path, slug, data: data as Record<string, unknown>, body: split.content.trim(), keyLines },
    diagnostics: [],
  };
}

/**
 * The record an entry describes, before validation: its front matter, the slug its file name
 * gives, and the body as the description (when there is one).
 * @example entryRecord(entry) // { id: 'd-1', title: 'X', slug: 'x', description: 'Body' }
 */
export function entryRecord(entry: ParsedEntry): Record<string, unknown> {
  return { ...entry.data, slug: entry.slug, ...(entry.body ? { description: entry.body } : {}) };
}

/** Parse a whole YAML file such as `categories.yaml`, with the line of each top-level key. */
export function parseYamlFile(file: SourceFile): StageResult<{ data: unknown; keyLines: Map<string, number> } | undefined> {
  const reading = readYaml(file.text);
  if (!reading.ok) {
    return fail(file.path, reading.code, reading.code === 'invalid_yaml' ? `not valid YAML: ${reading.reason}` : reading.reason, reading.line);
  }
  return { value: { data: reading.data, keyLines: reading.keyLines }, diagnostics: [] };
}

// --- internal ---

function baseName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

/** Why an opening line other than a bare `---` is refused, naming the line as written (cut). */
function fenceMessage(opening: string): string {
  const language = opening.slice(3).trim().toLowerCase();
  const kind = EXECUTABLE_LANGUAGES.has(language) ? ' (an executable front-matter language)' : /^[a-z][\w+-]*$/.test(language) ? ' (another front-matter language)' : '';
  return `front matter must open with a bare \`---\` line; \`${cut(opening.replace(/\r$/, ''))}\`${kind} is refused`;
}

function fail(path: string, code: string, message: string, line?: number): StageResult<undefined> {
  const diagnostic: Diagnostic = { severity: 'error', code, file: path, message };
  if (line !== undefined) diagnostic.line = line;
  return { value: undefined, diagnostics: [diagnostic] };
}
