/**
 * `npm run serve`: serve an existing build (no build step), for production, the benchmark
 * and tests that run the server as a child process. Tells a parent process when it listens.
 */
import { settings } from './_settings.ts';
import { startServer } from '../functions/server.ts';

const running = await startServer(settings());
process.send?.({ listening: running.url });
console.error(`serving on ${running.url}`);
// Exit cleanly on a signal (so `--cpu-prof` can write its profile, and connections close).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
