/**
 * `npm start`: build when the build is missing or stale (or serve the last good build when the
 * content does not build), then serve the API and the site on one port (`PORT`, default 4321;
 * `HOST`, default 127.0.0.1). The server's bundle is made again first when its sources changed
 * (scripts/_server-bundle.ts).
 */
import { useCompileCache } from './_compile-cache.ts';

useCompileCache();
const { freshServerBundle, serverModules } = await import('./_server-bundle.ts');
await freshServerBundle();
const { settings, buildAndServe } = await serverModules();
await buildAndServe(settings());
