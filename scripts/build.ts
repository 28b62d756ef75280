/**
 * `npm run build`: the content (`generated/`), then the site (`dist/`), recorded as built from
 * the current inputs and settings, so `npm start` with the same settings serves this build
 * instead of building again; then the server's bundle, when its sources changed
 * (scripts/_server-bundle.ts). Exits non-zero, saying why, when either part fails.
 */
import { settings } from './_settings.ts';
import { buildContent, buildInputs, buildSite, recordBuild } from './_build-steps.ts';
import { freshServerBundle } from './_server-bundle.ts';

const config = settings();
// Taken before building: an edit made while the build runs makes the next start build again.
const inputs = await buildInputs(config);
if (!(await buildContent(config))) process.exit(1);
if (!(await buildSite(config))) {
  console.error('the site does not build: fix the problems above and build again');
  process.exit(1);
}
await recordBuild(config, inputs);
await freshServerBundle();
console.error(`built the site into ${config.distDir}; npm start serves it as it is`);
