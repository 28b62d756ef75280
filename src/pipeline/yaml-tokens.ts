/**
 * In-place edits of values in a `yaml` concrete syntax tree (front-matter-edit.ts): a scalar
 * keeps its quoting and the comment after it; a list keeps the entries that did not change,
 * with their comments, and changes, adds or removes only the others.
 */
import { isDeepStrictEqual } from 'node:util';
import { diffArrays, type ArrayChange } from 'diff';
import { CST } from 'yaml';
import { readYaml } from './yaml.ts';

/** One entry of a block mapping or block list, as the parser gives it. */
export type MapItem = CST.BlockMap['items'][number];
type ListItem = CST.BlockSequence['items'][number];
type Scalar = string | number | boolean;

/**
 * Put `next` where the token `token` (holding `previous`) is, keeping its form; false when the
 * two are not both scalars or both lists of scalars that can be edited in place.
 */
export function setValueInPlace(token: CST.Token, previous: unknown, next: unknown, eol: string): boolean {
  if (isScalar(next)) {
    if (!isScalarToken(token)) return false;
    setScalar(token, next, { afterKey: true });
    return true;
  }
  if (!Array.isArray(next) || next.length === 0 || !next.every(isScalar) || !Array.isArray(previous)) return false;
  if (token.type === 'block-seq' && token.items.length === previous.length && token.items.every((item) => item.value && isScalarToken(item.value))) {
    editBlockList(token, previous, next, eol);
    return true;
  }
  // `[a, b]`: entries changed in place; a list of another length is written anew.
  if (token.type === 'flow-collection' && token.start.source === '[' && token.items.length === next.length && previous.length === next.length) {
    const values = token.items.map((item) => item.value);
    if (!values.every((value) => value !== undefined && isScalarToken(value))) return false;
    values.forEach((value, i) => {
      if (!isDeepStrictEqual(previous[i], next[i])) setScalar(value as CST.Token, next[i] as Scalar, { inFlow: true });
    });
    return true;
  }
  return false;
}

// --- internal ---

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function isScalarToken(token: CST.Token): boolean {
  return ['scalar', 'single-quoted-scalar', 'double-quoted-scalar', 'block-scalar'].includes(token.type);
}

/**
 * Set a scalar token, in its own quoting where it can keep it. A plain `true`, `123` or `null`
 * would be read back as another type: such text is quoted as new files quote it.
 */
function setScalar(token: CST.Token, value: Scalar, context: { afterKey?: boolean; inFlow?: boolean }): void {
  if (typeof value !== 'string') {
    CST.setScalarValue(token, String(value), { ...context, type: 'PLAIN' });
    return;
  }
  CST.setScalarValue(token, value, context);
  if (token.type === 'scalar' && !readsAs(token.source, value)) CST.setScalarValue(token, value, { ...context, type: 'QUOTE_SINGLE' });
}

function readsAs(source: string, value: string): boolean {
  const reading = readYaml(source);
  return reading.ok && reading.data === value;
}

/**
 * Edit a block list so it holds `next`: entries kept by the smallest diff (`diff`, as
 * `git diff` would line them up) stay as they are with their comments; a removed entry
 * followed by an added one is changed in place; the others are removed or added.
 */
function editBlockList(list: CST.BlockSequence, previous: readonly unknown[], next: readonly Scalar[], eol: string): void {
  const changes = diffArrays<unknown>([...previous], [...next], { comparator: isDeepStrictEqual });
  let at = 0;
  for (let c = 0; c < changes.length; c++) {
    const change = changes[c] as ArrayChange<unknown>;
    if (!change.added && !change.removed) {
      at += change.count;
      continue;
    }
    const removed = change.removed ? change.count : 0;
    const added = (change.added ? change.value : changes[c + 1]?.added ? (changes[++c]?.value ?? []) : []) as Scalar[];
    const inPlace = Math.min(removed, added.length);
    for (let i = 0; i < inPlace; i++) setScalar(list.items[at + i]?.value as CST.Token, added[i] as Scalar, {});
    at += inPlace;
    if (removed > inPlace) removeListItems(list, at, removed - inPlace);
    if (added.length > inPlace) addListItems(list, at, added.slice(inPlace), eol);
    at += added.length - inPlace;
  }
}

/** The first entry's indentation is written before it (after `key:`), the others' in their own start. */
function removeListItems(list: CST.BlockSequence, from: number, count: number): void {
  const gone = list.items.splice(from, count);
  // Comment lines above a removed entry stay, as for a removed field.
  const comments = gone.flatMap((item) => item.start.slice(0, lastNewline(item.start) + 1));
  const following = list.items[from];
  if (following) {
    const start = [...comments, ...following.start];
    following.start = from === 0 && start[0]?.type === 'space' ? start.slice(1) : start;
  } else if (comments.length > 0) {
    list.items.push({ start: comments });
  }
}

function addListItems(list: CST.BlockSequence, at: number, values: readonly Scalar[], eol: string): void {
  const made = values.map((value, i) => listItem(list.indent, value, at > 0 || i > 0, eol));
  const following = list.items[at];
  // A new first entry takes the place right after `key:`; the old first one now needs its indentation.
  if (at === 0 && following && list.indent > 0) following.start = [space(list.indent), ...following.start];
  list.items.splice(at, 0, ...made);
}

function listItem(indent: number, value: Scalar, indented: boolean, eol: string): ListItem {
  const token = CST.createScalarToken('', { indent: indent + 2, end: [{ type: 'newline', offset: -1, indent, source: eol }] });
  setScalar(token, value, {});
  const start: CST.SourceToken[] = [...(indented && indent > 0 ? [space(indent)] : []), { type: 'seq-item-ind', offset: -1, indent, source: '-' }, { type: 'space', offset: -1, indent, source: ' ' }];
  return { start, value: token };
}

function space(width: number): CST.SourceToken {
  return { type: 'space', offset: -1, indent: width, source: ' '.repeat(width) };
}

function lastNewline(tokens: readonly CST.SourceToken[]): number {
  for (let i = tokens.length - 1; i >= 0; i--) if (tokens[i]?.type === 'newline') return i;
  return -1;
}
