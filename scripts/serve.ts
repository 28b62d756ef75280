/**
 * `npm run serve`: serve an existing build (no build step), for production, the benchmark
 * and tests that run the server as a child process. Tells a parent process when it listens.
 */
import { useCompileCache } from './_compile-cache.ts';

useCompileCache();
const { settings } = await import('./_settings.ts');
const { runServer } = await import('./_serve-process.ts');
await runServer(settings());
