/**
 * `npm run serve`: serve an existing build (no build step), for production, the benchmark
 * and tests that run the server as a child process. Tells a parent process when it listens.
 */
import { settings } from './_settings.ts';
import { runServer } from './_serve-process.ts';

await runServer(settings());
