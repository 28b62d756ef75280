/**
 * Changing the front matter of a file an editor wrote while keeping everything else as it was
 * (issue 16, item 6): an admin edit of one field is a one-line diff. The `yaml` package's
 * concrete syntax tree holds every byte of the source (comments, blank lines, quoting, the
 * spaces before a comment, key order); only the tokens of changed fields are replaced
 * (yaml-tokens.ts), a new field is written as new files write it (serialize.ts), and the
 * result is read back to prove it holds exactly the intended data. The Markdown body is kept
 * byte for byte unless a new one is given.
 */
import { isDeepStrictEqual } from 'node:util';
import { CST, Document, isCollection, parse, Parser, visit } from 'yaml';
import { frontMatterYaml } from './serialize.ts';
import { setValueInPlace, type MapItem } from './yaml-tokens.ts';
import { readYaml } from './yaml.ts';

/** What to change in a front matter: fields to set (to plain data) and fields to remove. */
export interface FrontMatterChanges {
  set: Record<string, unknown>;
  remove: string[];
}

/**
 * The changes that turn the fields `before` into `after` (compared by value; a field whose
 * value is `undefined` is absent).
 * @example frontMatterChanges({ a: 1, b: 2 }, { a: 1, c: 3 }) // { set: { c: 3 }, remove: ['b'] }
 */
export function frontMatterChanges(before: Record<string, unknown>, after: Record<string, unknown>): FrontMatterChanges {
  const changes: FrontMatterChanges = { set: {}, remove: [] };
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (isDeepStrictEqual(before[key], after[key])) continue;
    if (after[key] === undefined) changes.remove.push(key);
    else changes.set[key] = after[key];
  }
  return changes;
}

export interface EditOptions {
  /** Where a new field goes: after the last field of the file that comes before it in this order. */
  order: readonly string[];
  /** A new Markdown body; left out, the body stays byte for byte. */
  body?: string;
}

/**
 * `text`, a Markdown file with front matter, with `changes` made and nothing else touched; or
 * `undefined` when its front matter is not one block mapping that can be edited in place (the
 * caller then writes the file anew). Comment lines above a removed field stay: they may head
 * a group of fields.
 * @example editMarkdown("---\ntitle: 'Old'  # why\n---\nBody\n", { set: { title: 'New' }, remove: [] }, { order: [] }) // "---\ntitle: 'New'  # why\n---\nBody\n"
 */
export function editMarkdown(text: string, changes: FrontMatterChanges, options: EditOptions): string | undefined {
  // gray-matter's split (parse.ts): the front matter ends at the first line starting with `---`.
  const close = text.startsWith('---') ? text.indexOf('\n---', 3) : -1;
  if (close === -1) return undefined;
  // From the end of the opening line through the line break before the closing fence.
  const matter = editMapping(text.slice(3, close + 1), changes, options.order);
  if (matter === undefined) return undefined;
  const rest = text.slice(close + 1);
  return `---${matter}${options.body === undefined ? rest : withBody(rest, options.body)}`;
}

// --- internal ---

function editMapping(source: string, changes: FrontMatterChanges, order: readonly string[]): string | undefined {
  const original = readYaml(source);
  if (!original.ok || !isRecord(original.data)) return undefined;
  const tokens = [...new Parser().parse(source)];
  const documents = tokens.filter((t) => t.type === 'document');
  const map = documents.length === 1 ? documents[0]?.value : undefined;
  if (map?.type !== 'block-map') return undefined;
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const expected: Record<string, unknown> = { ...original.data };

  for (const [key, value] of Object.entries(changes.set)) {
    expected[key] = value;
    const at = indexOfKey(map.items, key);
    const item = map.items[at];
    if (!item) {
      map.items.splice(insertionPoint(map.items, key, order), 0, freshItem(key, value, false, eol));
    } else if (!(item.value && setValueInPlace(item.value, original.data[key], value, eol))) {
      // Another kind of value (a list for a text, a list of another length in brackets): the
      // field is written anew, under the comment lines it had.
      map.items[at] = { ...freshItem(key, value, item.value?.type === 'flow-collection', eol), start: item.start };
    }
  }
  for (const key of changes.remove) {
    delete expected[key];
    const at = indexOfKey(map.items, key);
    const item = map.items[at];
    if (item) map.items.splice(at, 1, ...(item.start.length > 0 ? [{ start: item.start }] : []));
  }

  const edited = tokens.map((t) => CST.stringify(t)).join('');
  // The proof: read back as every reader of content reads it, the file holds exactly this.
  const check = readYaml(edited);
  return check.ok && isDeepStrictEqual(check.data, expected) ? edited : undefined;
}

/** The rest of the file from the closing fence, with `body` as its Markdown body (as `toMarkdown` writes one). */
function withBody(rest: string, body: string): string {
  const lineEnd = rest.indexOf('\n');
  const fence = lineEnd === -1 ? `${rest}\n` : rest.slice(0, lineEnd + 1);
  const text = body.trim();
  return `${fence}${text ? `${text}\n` : ''}`;
}

/**
 * A field as a new file writes it, as tokens to put into a mapping; with `flow`, a list on one
 * line (`tags: [a, b]`) as the editor wrote it, by `yaml`, which quotes `[]{},` inside it.
 */
function freshItem(key: string, value: unknown, flow: boolean, eol: string): MapItem {
  const source = (flow ? flowField(key, value) : frontMatterYaml({ [key]: value })).replace(/\n/g, eol);
  for (const token of new Parser().parse(source)) {
    const first = token.type === 'document' && token.value?.type === 'block-map' ? token.value.items[0] : undefined;
    if (first) return first;
  }
  throw new Error(`could not write field ${key}`);
}

function flowField(key: string, value: unknown): string {
  // YAML 1.1 rules for quoting, as new files quote (`'on'`, dates), so 1.1 tools keep them as text.
  const doc = new Document({ [key]: value }, { version: '1.1' });
  const node = doc.get(key, true);
  if (isCollection(node)) node.flow = true;
  // And quoted where only 1.2, as this project reads, would take the text for a number (`0o7`).
  visit(doc, {
    Scalar(_, scalar) {
      if (typeof scalar.value === 'string' && !readsAsItself(scalar.value)) scalar.type = 'QUOTE_SINGLE';
    },
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false, singleQuote: true });
}

/** Whether text written plain reads back as the same string under the YAML 1.2 core schema. */
function readsAsItself(text: string): boolean {
  try {
    // A value like `!x` reads as an unknown tag: that it does not read as itself is the answer, not a warning for stderr.
    return parse(text, { schema: 'core', logLevel: 'error' }) === text;
  } catch {
    return false;
  }
}

function indexOfKey(items: readonly MapItem[], key: string): number {
  return items.findIndex((item) => keyOf(item) === key);
}

function keyOf(item: MapItem): string | undefined {
  return item.key ? CST.resolveAsScalar(item.key)?.value : undefined;
}

/** After the last field that comes before `key` in `order`; first when none does; last for a key not in `order`. */
function insertionPoint(items: readonly MapItem[], key: string, order: readonly string[]): number {
  const rank = order.indexOf(key);
  if (rank === -1) return items.length;
  let at = 0;
  items.forEach((item, index) => {
    const other = order.indexOf(keyOf(item) ?? '');
    if (other !== -1 && other < rank) at = index + 1;
  });
  return at;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
