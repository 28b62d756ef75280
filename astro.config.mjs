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
  vite: {
    // Scripts always ship as files: the Content-Security-Policy allows no inline script.
    build: { assetsInlineLimit: 0 },
    // dist/server carries its packages, so a host that gets only that folder (the Netlify
    // function's included_files) renders without node_modules; the same for the build's own
    // prerendering, which may write its chunks outside the project (DIST_DIR).
    ssr: { noExternal: true },
    environments: { prerender: { resolve: { noExternal: true } } },
  },
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
