/**
 * `npm start`: build when the build is missing or stale (or serve the last good build when the
 * content does not build), then serve the API and the site on one port (`PORT`, default 4321;
 * `HOST`, default 127.0.0.1).
 */
import { useCompileCache } from './_compile-cache.ts';

useCompileCache();
const { settings } = await import('./_settings.ts');
const { buildAndServe } = await import('./_serve-process.ts');
await buildAndServe(settings());
