/**
 * Hostile content for the security tests (issue 11, items 1 and 7): front matter that runs
 * code if any front-matter engine evaluates it, and a YAML alias bomb (billion laughs).
 */

/**
 * A front matter body that, evaluated as JavaScript, creates `marker` (gray-matter's `js`
 * engine has `require` in scope) and still returns a plausible object.
 * @example `---js\n${jsPayload('/tmp/m')}\n---\n`
 */
export function jsPayload(marker: string): string {
  return `{ title: require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned') || 'Pwned' }`;
}

/**
 * Nine levels of nested anchors and aliases, `a` to `i` (9^9 strings once expanded), in
 * about 330 bytes; `*i` then expands to the whole bomb.
 * @example `---\ntitle: T\n${aliasBomb()}\neligibility: [*i]\n---\n`
 */
export function aliasBomb(): string {
  const names = 'abcdefghi';
  const lines = ['a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]'];
  for (let level = 1; level < names.length; level++) {
    const name = names.charAt(level);
    const previous = names.charAt(level - 1);
    lines.push(`${name}: &${name} [${Array.from({ length: 9 }, () => `*${previous}`).join(',')}]`);
  }
  return lines.join('\n');
}
