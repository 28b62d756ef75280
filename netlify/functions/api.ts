/**
 * The Netlify function: the platform-neutral app through functions/adapters/netlify.ts. Its
 * paths are here, as literals (Netlify reads `config` from this file without running it): the
 * API, the documents the app renders from the catalog or the content's history (not built as
 * static files), and Astro's on-demand pages (rendered from the bundled dist/server).
 * `preferStatic`: a file of the build wins, so a prerendered page under these paths
 * (/account/deleted/) stays static.
 * tests/unit/netlify-config.test.ts checks they cover every document route and on-demand page.
 */
export { default } from '../../functions/adapters/netlify.ts';

export const config = {
  path: [
    '/api/*',
    '/llms.txt',
    '/llms-full.txt',
    '/openapi.json',
    '/sitemap.xml',
    '/robots.txt',
    '/changes.atom',
    '/.well-known/*',
    '/login{/}?',
    '/signup{/}?',
    '/confirm-email{/}?',
    '/sign-in-link{/}?',
    '/forgot-password{/}?',
    '/reset-password{/}?',
    '/account{/}?',
    '/account/*',
    '/submit{/}?',
    '/deals/search{/}?',
    '/startups/search{/}?',
  ],
  preferStatic: true,
};
