/**
 * `npm start`: build when the build is missing or stale, then serve the API and the site on
 * one port (`PORT`, default 4321; `HOST`, default 127.0.0.1).
 */
import { settings } from './_settings.ts';
import { buildAll, isBuildCurrent } from './_build-steps.ts';

const config = settings();
if (!(await isBuildCurrent(config))) {
  console.error('build is missing or stale: building content and site...');
  if (!(await buildAll(config))) {
    console.error('build failed; fix the problems above (npm run check lists them) and start again');
    process.exit(1);
  }
}
await import('./serve.ts');
