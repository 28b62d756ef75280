/**
 * Writing content files back: front matter in a stable, readable form (keys in the given
 * order, no line folding, dates quoted so YAML 1.1 tools keep them as text) and the body.
 * The same record always yields the same bytes, so unchanged fields make no diff.
 */
import yaml from 'js-yaml';

/**
 * @example toMarkdown({ id: 'd-1', title: 'X' }, 'Body') // '---\nid: d-1\ntitle: X\n---\nBody\n'
 */
export function toMarkdown(frontMatter: Record<string, unknown>, body: string): string {
  const data = Object.fromEntries(Object.entries(frontMatter).filter(([, value]) => value !== undefined));
  const front = yaml.dump(data, { lineWidth: -1, noRefs: true, sortKeys: false, quotingType: "'" });
  const text = body.trim();
  return `---\n${front}---\n${text ? `${text}\n` : ''}`;
}
