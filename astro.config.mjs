// Pages only: the API under /api/* is served by functions/ and never goes through Astro.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  outDir: process.env.DIST_DIR ?? './dist',
  compressHTML: true,
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // Scripts always ship as files: the Content-Security-Policy allows no inline script.
  vite: { build: { assetsInlineLimit: 0 } },
});
