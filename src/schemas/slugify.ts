/**
 * The one slug maker of the project: admin creates, approved submissions and generated content
 * all use it. Its library is loaded on first use, not with the server: building its
 * transliteration tables took 20–35 ms of every start (docs/performance.md, nineteenth sitting),
 * and only writes make slugs. Node loads an ES module package synchronously with `require`.
 */
import { createRequire } from 'node:module';

type MakeSlug = typeof import('@sindresorhus/slugify').default;

let makeSlug: MakeSlug | undefined;

/**
 * A slug made from free text (at most 80 characters, cut at a hyphen-free end); empty when the
 * text has no letters or digits to keep. Letters are transliterated, not dropped (issue 16):
 * `@sindresorhus/slugify` knows German, Cyrillic, Greek, Vietnamese…
 * @example slugify('Stripe Atlas: $100 off') // 'stripe-atlas-100-off'
 * @example slugify('Москва Fund') // 'moskva-fund'
 */
export function slugify(text: string): string {
  makeSlug ??= (createRequire(import.meta.url)('@sindresorhus/slugify') as { default: MakeSlug }).default;
  // `decamelize` would split brand names: `GitHub` → `git-hub`.
  return makeSlug(text, { decamelize: false }).slice(0, 80).replace(/-+$/, '');
}
