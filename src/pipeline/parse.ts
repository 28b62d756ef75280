/**
 * Stage 1: parse content files. Markdown files are split by gray-matter (YAML front matter,
 * Markdown body); YAML files are parsed whole. Parsing problems become diagnostics.
 */
import matter from 'gray-matter';
import yaml from 'js-yaml';
import type { Diagnostic, StageResult } from './diagnostics.ts';

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
 * One YAML reading for front matter and YAML files: js-yaml's core schema, so dates stay the
 * strings editors wrote (no implicit Date objects).
 */
export const parseYaml = (text: string): unknown => yaml.load(text, { schema: yaml.CORE_SCHEMA });

const MATTER_OPTIONS = { engines: { yaml: (text: string) => parseYaml(text) as object } };

/**
 * Parse one Markdown content file.
 * @example parseEntry({ path: 'content/deals/x.md', text: '---\nid: d-1\n---\nBody' })
 */
export function parseEntry(file: SourceFile): StageResult<ParsedEntry | undefined> {
  const slug = baseName(file.path);
  if (!file.text.startsWith('---')) {
    return fail(file.path, 'missing_front_matter', 'expected the file to start with `---` front matter');
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // gray-matter caches by input text; a copy of options defeats that cache's stale-data trap.
    parsed = matter(file.text, { ...MATTER_OPTIONS });
  } catch (error) {
    return fail(file.path, 'invalid_yaml', `front matter is not valid YAML: ${yamlMessage(error)}`, yamlLine(error, 0));
  }
  const data: unknown = parsed.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return fail(file.path, 'invalid_front_matter', 'expected front matter to be a YAML mapping of fields');
  }
  return {
    value: {
      path: file.path,
      slug,
      data: data as Record<string, unknown>,
      body: parsed.content.trim(),
      keyLines: topLevelKeyLines(file.text),
    },
    diagnostics: [],
  };
}

/** Parse a whole YAML file such as `categories.yaml`, with the line of each top-level key. */
export function parseYamlFile(file: SourceFile): StageResult<{ data: unknown; keyLines: Map<string, number> } | undefined> {
  try {
    const data: unknown = parseYaml(file.text);
    const keyLines = new Map<string, number>();
    file.text.split('\n').forEach((line, index) => {
      const key = /^([A-Za-z_][\w-]*):/.exec(line)?.[1];
      if (key && !keyLines.has(key)) keyLines.set(key, index + 1);
    });
    return { value: { data, keyLines }, diagnostics: [] };
  } catch (error) {
    return fail(file.path, 'invalid_yaml', `not valid YAML: ${yamlMessage(error)}`, yamlLine(error, 0));
  }
}

// --- internal ---

function baseName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

/** Line numbers (1-based, in the whole file) of each top-level front matter key. */
function topLevelKeyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const all = text.split('\n');
  for (let i = 1; i < all.length; i++) {
    const line = all[i] ?? '';
    if (line.startsWith('---')) break;
    const key = /^([A-Za-z_][\w-]*):/.exec(line)?.[1];
    if (key && !lines.has(key)) lines.set(key, i + 1);
  }
  return lines;
}

function fail(path: string, code: string, message: string, line?: number): StageResult<undefined> {
  const diagnostic: Diagnostic = { severity: 'error', code, file: path, message };
  if (line !== undefined) diagnostic.line = line;
  return { value: undefined, diagnostics: [diagnostic] };
}

function yamlMessage(error: unknown): string {
  const reason = (error as { reason?: string }).reason;
  const message = reason ?? (error instanceof Error ? error.message : String(error));
  return message.split('\n')[0] ?? message;
}

/**
 * Line of a YAML error in the whole file. gray-matter hands js-yaml the front matter with the
 * line break after `---`, so its line numbers already count the opening line (offset 0).
 */
function yamlLine(error: unknown, offset: number): number | undefined {
  const line = (error as { mark?: { line?: number } }).mark?.line;
  return line === undefined ? undefined : line + 1 + offset;
}
