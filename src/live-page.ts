/**
 * A catalog page to render from the live catalog: one whose content changed since the site was
 * built (an admin write, or content pulled from the remote). The site handler decides
 * (functions/site/live-pages.ts); src/pages/live/page.astro renders it with the same
 * component as the built page.
 */
import type { DealCategory } from './schemas/category.ts';
import type { Deal } from './schemas/deal.ts';
import type { Startup } from './schemas/startup.ts';

export type LivePage =
  { kind: 'home' | 'deals' | 'programs' | 'startups' } | { kind: 'deal'; deal: Deal; unsaved?: boolean } | { kind: 'category'; category: DealCategory } | { kind: 'startup'; startup: Startup };
