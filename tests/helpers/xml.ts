/**
 * XML read strictly, for tests of the XML documents (the Atom change feed): sax in strict mode
 * refuses unbalanced or stray tags, unknown entities, a bare `&` or `<`, unquoted or repeated
 * attributes and a second root element; the characters XML 1.0 allows nowhere (most control
 * characters, lone surrogates), which sax lets through, are refused here. The result is a
 * small element tree. `atomErrors` validates a feed against RFC 4287's grammar with jing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sax from 'sax';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (not its children's). */
  text: string;
}

/**
 * Parse `text`, or throw naming the first problem.
 * @example parseXml('<a x="1"><b>hi</b></a>').children[0]?.text // 'hi'
 */
export function parseXml(text: string): XmlElement {
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
  const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  if (forbidden) throw new Error(`character U+${forbidden[0].charCodeAt(0).toString(16).padStart(4, '0')} is not allowed in XML, at ${forbidden.index}`);
  const parser = sax.parser(true);
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.onerror = (error) => {
    throw error;
  };
  parser.onopentag = (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...tag.attributes }, children: [], text: '' };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else if (root) throw new Error(`a second root element <${tag.name}>`);
    else root = element;
    stack.push(element);
  };
  parser.onclosetag = () => {
    stack.pop();
  };
  parser.ontext = (chunk) => {
    const current = stack.at(-1);
    if (current) current.text += chunk;
  };
  parser.write(text).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** The children of `element` named `name`. */
export const childrenNamed = (element: XmlElement, name: string): XmlElement[] => element.children.filter((child) => child.name === name);

/**
 * Validate an Atom document against the RELAX NG grammar of RFC 4287 (tests/fixtures/atom) with
 * jing, the Debian `jing` package: the errors jing names, one per line, none for a valid feed.
 * @example await atomErrors('<feed xmlns="http://www.w3.org/2005/Atom"/>') // ['…: element "feed" incomplete; missing required elements "id", "title" and "updated"']
 */
export async function atomErrors(text: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'deals-atom-'));
  const file = join(dir, 'feed.xml');
  try {
    await writeFile(file, text);
    const run = spawnSync('jing', ['-c', ATOM_GRAMMAR, file], { encoding: 'utf8' });
    if (run.error) throw new Error(`jing could not run (${run.error.message}): apt-get install jing`, { cause: run.error });
    // jing's launcher warns about optional jars it does not find; its findings name the file.
    const errors = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.startsWith(file));
    if (run.status !== 0 && errors.length === 0) throw new Error(`jing failed without naming a problem: ${run.stderr}`);
    return errors.map((line) => line.slice(file.length + 1));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const ATOM_GRAMMAR = join(import.meta.dirname, '..', 'fixtures', 'atom', 'rfc4287.rnc');
