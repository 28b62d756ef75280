/**
 * `npm run serve`: serve an existing build (no build step), for production, the benchmark
 * and tests that run the server as a child process. Tells a parent process when it listens.
 * Runs the server's bundle when it is current (scripts/_server-bundle.ts), else its sources.
 */
import { useCompileCache } from './_compile-cache.ts';

useCompileCache();
const { serverModules } = await import('./_server-bundle.ts');
const { settings, runServer } = await serverModules();
await runServer(settings());
