/**
 * Writing new content files: front matter in a stable, readable form (keys in the given
 * order, no line folding, dates quoted so YAML 1.1 tools keep them as text) and the body.
 * The same record always yields the same bytes. Changes to an existing file go through
 * front-matter-edit.ts instead, which keeps what the editor wrote.
 */
import yaml from 'js-yaml';

/**
 * @example toMarkdown({ id: 'd-1', title: 'X' }, 'Body') // '---\nid: d-1\ntitle: X\n---\nBody\n'
 */
export function toMarkdown(frontMatter: Record<string, unknown>, body: string): string {
  const text = body.trim();
  return `---\n${frontMatterYaml(frontMatter)}---\n${text ? `${text}\n` : ''}`;
}

/**
 * Front matter fields as `toMarkdown` writes them (undefined values left out).
 * @example frontMatterYaml({ expiryDate: '2027-06-30' }) // "expiryDate: '2027-06-30'\n"
 */
export function frontMatterYaml(data: Record<string, unknown>): string {
  const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
  return yaml.dump(defined, { lineWidth: -1, noRefs: true, sortKeys: false, quotingType: "'" });
}
