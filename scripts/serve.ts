/**
 * `npm run serve`: serve an existing build (no build step), for production, the benchmark
 * and tests that run the server as a child process. Tells a parent process when it listens.
 */
import { enableCompileCache } from 'node:module';

// V8's code cache on disk (NODE_COMPILE_CACHE, else os.tmpdir()/node-compile-cache) for every
// module imported after this line: compiling the ~500 modules of a start, TypeScript stripped
// first, was about half of the time to the first answer (docs/performance.md, "Start").
enableCompileCache();
const { settings } = await import('./_settings.ts');
const { runServer } = await import('./_serve-process.ts');
await runServer(settings());
