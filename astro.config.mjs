// Pages only: the API under /api/* is served by functions/ and never goes through Astro.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  output: 'static',
  adapter: nodeWithWebEntry({ mode: 'middleware' }),
  outDir: process.env.DIST_DIR ?? './dist',
  compressHTML: true,
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // Scripts always ship as files: the Content-Security-Policy allows no inline script.
  vite: { build: { assetsInlineLimit: 0 } },
});

/**
 * @astrojs/node as it is (its settings, sessions, image endpoint, build output), with this
 * site's own server entrypoint, functions/site/astro-entry.ts: on-demand pages as a Web
 * handler (`render(request, locals)`) that the server calls from functions/site/site.ts.
 * @param {import('@astrojs/node').Options} options
 * @returns {import('astro').AstroIntegration}
 */
function nodeWithWebEntry(options) {
  const integration = node(options);
  const serverEntrypoint = new URL('./functions/site/astro-entry.ts', import.meta.url);
  const configDone = integration.hooks['astro:config:done'];
  return {
    ...integration,
    hooks: {
      ...integration.hooks,
      'astro:config:done': (params) => configDone?.({ ...params, setAdapter: (adapter) => params.setAdapter({ ...adapter, serverEntrypoint, entrypointResolution: 'auto' }) }),
    },
  };
}
