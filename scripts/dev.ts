/**
 * `npm run dev`: `npm start` with the preview loop (functions/dev/). The same server on the
 * same build also watches the content folder: a save is re-indexed in place and every open page
 * reloads; a file that does not build keeps the last good catalog, and its errors show in the
 * terminal and over the page. Code changes restart this script (the `dev` npm script runs it
 * under `node --watch-path`), which rebuilds the site as `npm start` does.
 */
import { useCompileCache } from './_compile-cache.ts';

useCompileCache(); // a code change restarts this script: it compiles only what changed
const { settings } = await import('./_settings.ts');
const { buildAndServe } = await import('./_serve-process.ts');
await buildAndServe(settings(), { dev: true });
