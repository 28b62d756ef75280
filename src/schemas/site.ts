/**
 * `content/site.yaml`: the site's identity, used by pages, llms.txt and the agent card.
 * `baseUrl` may be left out of the file: the build then uses the address the server listens
 * on (`http://127.0.0.1:4321` by default; see `listenUrl` in functions/config.ts), so a first
 * run on any port links to itself. A public site sets it.
 */
import * as z from 'zod';
import { httpUrl, text } from './fields.ts';

/** A paragraph or a few, in Markdown. */
const markdownText = (max: number) => z.string().trim().min(1).max(max);

export const SiteSchema = z.strictObject({
  name: text(100),
  baseUrl: httpUrl(),
  description: text(1000),
  tagline: text(200).optional(),
  contact: z
    .strictObject({
      email: z.email().optional(),
      url: httpUrl().optional(),
    })
    .default({}),
  /** The about page's sections, in Markdown; a section left out gets the page's general wording. */
  about: z
    .strictObject({
      /** Who runs the site and why. */
      runBy: markdownText(4000).optional(),
      /** How entries are checked, and how often. */
      verification: markdownText(4000).optional(),
      /** What a sponsor can buy, how it is labelled, and what it cannot buy. */
      sponsorship: markdownText(4000).optional(),
    })
    .default({}),
  /** How fresh records must be (docs/freshness.md): `npm run check` and the admin's "Needs attention" page read it. */
  freshness: z
    .strictObject({
      /** A record last verified longer ago than this is stale. */
      maxAgeDays: z.number().int().min(1).max(3650).default(180),
      /** A deal whose expiry date is this close is listed as expiring soon. */
      expiringWithinDays: z.number().int().min(1).max(365).default(14),
    })
    .prefault({}),
});

/** What the file may say: the site, with `baseUrl` optional. */
export const SiteFileSchema = SiteSchema.extend({ baseUrl: httpUrl().optional() });

export type Site = z.output<typeof SiteSchema>;
export type SiteFile = z.output<typeof SiteFileSchema>;
