/**
 * The HTML of a deal's or startup's logo, in one place for the pages (Logo.astro) and instant
 * search: the image the build made (`/logos/<kind>/<slug>.webp`), or the name's monogram drawn
 * as text. Both are decorative (the name is in the text beside them) and a fixed size, so
 * nothing moves when they load.
 */
import { paths } from '../agents/site-urls.ts';
import { escapeHtml } from '../escape-html.ts';
import { monogram } from './monogram.ts';

export interface LogoMarkup {
  kind: 'deals' | 'startups';
  slug: string;
  /** The name the monogram is made from (a deal's provider, a startup's name). */
  name: string;
  /** Whether the build made an image for this record (logo-manifest.ts). */
  hasImage: boolean;
  /** CSS pixels; cards use 48, record pages 64. */
  size?: 48 | 64;
  /** Above the fold on a record page: load the image at once. */
  eager?: boolean;
}

/**
 * @example logoHtml({ kind: 'deals', slug: 'stripe-atlas', name: 'Stripe', hasImage: false })
 * // '<span class="logo logo-48 monogram single" style="background-color:#…" data-initials="S" aria-hidden="true"></span>'
 */
export function logoHtml({ kind, slug, name, hasImage, size = 48, eager = false }: LogoMarkup): string {
  if (hasImage) return `<img class="logo logo-${size}" src="${paths.logo(kind, slug)}" alt="" width="${size}" height="${size}" loading="${eager ? 'eager' : 'lazy'}" decoding="async">`;
  const { initials, colour, single } = monogram(name);
  // The initials are drawn by CSS from the attribute, so they are no part of the heading's text.
  return `<span class="logo logo-${size} monogram${single ? ' single' : ''}" style="background-color:${colour}" data-initials="${escapeHtml(initials)}" aria-hidden="true"></span>`;
}
