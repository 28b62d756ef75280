/**
 * `npm start`: build when the build is missing or stale, then serve the API and the site on
 * one port (`PORT`, default 4321; `HOST`, default 127.0.0.1).
 */
import { loadConfig } from '../src/config.ts';
import { startServer } from '../functions/server.ts';
import { buildAll, isBuildCurrent } from './_build-steps.ts';

const config = loadConfig();
if (!(await isBuildCurrent(config))) {
  console.error('build is missing or stale: building content and site...');
  if (!(await buildAll(config))) {
    console.error('build failed; fix the problems above (npm run check lists them) and start again');
    process.exit(1);
  }
}
const running = await startServer(config);
console.error(`serving on ${running.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
