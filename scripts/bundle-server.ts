/**
 * `npm run bundle`: make the server bundle now when it is stale (scripts/_server-bundle.ts), as
 * `npm run build` does last; for an image or a deployment that builds elsewhere and serves here.
 * Exits non-zero, saying why, when it cannot be made.
 */
import { bundleFolder, bundleServer, staleBecause } from './_server-bundle.ts';

const folder = bundleFolder();
if (!folder) {
  console.error('SERVER_BUNDLE=off: nothing to bundle');
} else if (staleBecause(folder)) {
  await bundleServer(folder);
  console.error(`bundled the server into ${folder}`);
} else {
  console.error(`the server bundle in ${folder} is current`);
}
