/**
 * The Netlify function: the platform-neutral app through functions/adapters/netlify.ts. Its
 * paths are here, as literals (Netlify reads `config` from this file without running it): the
 * API and the documents the app renders from the catalog or the content's history (not built as static files).
 * tests/unit/netlify-config.test.ts checks they cover every document route.
 */
export { default } from '../../functions/adapters/netlify.ts';

export const config = {
  path: ['/api/*', '/llms.txt', '/llms-full.txt', '/openapi.json', '/sitemap.xml', '/robots.txt', '/changes.atom', '/.well-known/*'],
};
