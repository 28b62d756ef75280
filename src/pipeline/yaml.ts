/**
 * The one YAML reader of content, for front matter and whole files (`categories.yaml`,
 * `site.yaml`), on the `yaml` package. Security review, issue 11, item 7: anchors and
 * aliases are refused on the parsed document, before anything expands them, so a 500-byte
 * alias bomb (billion laughs) costs a parse, not exponential time. Front matter in the flat
 * form nearly every entry has (`key: value` lines, lists of `- value`) is read by a fast path
 * that agrees with the package (yaml-flat.ts); everything else, problems included, by the package.
 */
import { isAlias, isMap, isScalar, LineCounter, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import { cut, shown } from './diagnostics.ts';
import { readFlatYaml } from './yaml-flat.ts';

/** What reading YAML gave: the data with each top-level key's line, or one problem at its line. */
export type YamlReading = { ok: true; data: unknown; keyLines: Map<string, number> } | { ok: false; code: 'invalid_yaml' | 'yaml_alias'; reason: string; line: number | undefined };

/**
 * Read one YAML document. Lines are 1-based lines of `text`, so a caller that passes text
 * beginning on line 1 of its file (front matter as gray-matter cuts it, right after `---`)
 * gets lines of the file.
 * @example readYaml('id: d-1\ntitle: T\n') // { ok: true, data: { id: 'd-1', title: 'T' }, keyLines: Map { 'id' => 1, 'title' => 2 } }
 */
export function readYaml(text: string): YamlReading {
  return readFlatYaml(text) ?? readYamlDocument(text);
}

/** `readYaml` by the `yaml` package alone, whatever the text's form: what the flat fast path (yaml-flat.ts) must agree with. */
export function readYamlDocument(text: string): YamlReading {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    // YAML 1.2 core: dates stay the strings editors wrote, `on`/`yes` stay strings (as with
    // js-yaml's CORE_SCHEMA before), even under a `%YAML 1.1` directive.
    schema: 'core',
    // `!!binary`, `!!timestamp`, `!!set`… would otherwise become Buffers, Dates, Sets.
    resolveKnownTags: false,
    uniqueKeys: true,
    prettyErrors: false,
    // Complex keys are stringified by `toJS`; that is no reason to write to stderr.
    logLevel: 'error',
    lineCounter: lines,
  });
  const lineAt = (offset: number | undefined) => (offset === undefined || offset < 0 ? undefined : lines.linePos(offset).line);

  const problem = firstProblem([...doc.errors, ...doc.warnings]);
  if (problem) return { ok: false, code: 'invalid_yaml', reason: problem.reason, line: lineAt(problem.offset) };
  // An anchor is written `&name` and an alias `*name`: text with neither has none to look for.
  const shared = text.includes('&') || text.includes('*') ? firstAnchorOrAlias(doc, text) : undefined;
  if (shared) {
    return { ok: false, code: 'yaml_alias', reason: `uses a YAML ${shared.what}; anchors and aliases are not allowed, write each value out`, line: lineAt(shared.offset) };
  }
  let data: unknown;
  try {
    // No alias is left to resolve; `maxAliasCount: 0` makes any that did throw instead.
    // An empty document reads as nothing (as js-yaml had it), so a schema says "is required".
    data = doc.contents === null ? undefined : doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    return { ok: false, code: 'invalid_yaml', reason: cut(error instanceof Error ? error.message : String(error)), line: undefined };
  }
  return { ok: true, data, keyLines: topLevelKeyLines(doc, lineAt) };
}

// --- internal ---

/**
 * The problem to show an editor, worded for people and placed on the line to fix. `yaml`
 * reports a line indented under the one above (`title: X` then `  provider: Y`) as a
 * multi-line implicit key starting on the line above; the line to fix is where it ends.
 */
function firstProblem(problems: readonly YAMLError[]): { reason: string; offset: number } | undefined {
  const indented = problems.find((p) => p.code === 'MULTILINE_IMPLICIT_KEY');
  if (indented) return { reason: 'bad indentation of a mapping entry', offset: indented.pos[1] - 1 };
  const first = problems[0];
  if (!first) return undefined;
  const reason =
    first.code === 'DUPLICATE_KEY'
      ? 'duplicated mapping key'
      : first.message === 'Nested mappings are not allowed in compact mappings'
        ? 'a plain value contains `: `; put the value in quotes'
        : first.message.charAt(0).toLowerCase() + first.message.slice(1);
  // Library messages can quote the source (a tag, an anchor name): cut like any printed value.
  return { reason: cut(reason), offset: first.pos[0] };
}

/** The first anchor or alias in document order, with the offset of its `&name` / `*name`. */
function firstAnchorOrAlias(doc: Document, text: string): { what: string; offset: number | undefined } | undefined {
  let found: { what: string; offset: number | undefined } | undefined;
  visit(doc, {
    Node(_key, node) {
      const start = node.range?.[0];
      if (isAlias(node)) {
        found = { what: `alias (${shown(`*${node.source}`)})`, offset: start };
      } else if (node.anchor) {
        // A node's range starts at its value, after its properties; the `&name` is before it
        // (on the line above when the anchor stands alone: `base: &base` then a block map).
        const at = start === undefined ? -1 : text.lastIndexOf(`&${node.anchor}`, start);
        found = { what: `anchor (${shown(`&${node.anchor}`)})`, offset: at >= 0 ? at : start };
      }
      return found ? visit.BREAK : undefined;
    },
  });
  return found;
}

function topLevelKeyLines(doc: Document, lineAt: (offset: number | undefined) => number | undefined): Map<string, number> {
  const keyLines = new Map<string, number>();
  if (!isMap(doc.contents)) return keyLines;
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key)) continue;
    const line = lineAt(pair.key.range?.[0]);
    const key = String(pair.key.value);
    if (line !== undefined && !keyLines.has(key)) keyLines.set(key, line);
  }
  return keyLines;
}
