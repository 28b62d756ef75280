/**
 * XML read strictly, for tests of the XML documents (the Atom change feed): sax in strict mode
 * refuses unbalanced or stray tags, unknown entities, a bare `&` or `<`, unquoted or repeated
 * attributes and a second root element; the characters XML 1.0 allows nowhere (most control
 * characters, lone surrogates), which sax lets through, are refused here. The result is a
 * small element tree.
 */
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
