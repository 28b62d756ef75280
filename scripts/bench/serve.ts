/** Start the real server for the benchmark (a child process, so its memory is its own). */
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../functions/server.ts';

await startServer(loadConfig());
process.send?.('ready');
// Exit cleanly on a signal so `--cpu-prof` can write its profile.
process.once('SIGINT', () => process.exit(0));
