/**
 * Global setup of the browser and reliability suites: their servers run from the server bundle
 * (scripts/_server-bundle.ts), made here when stale, as `npm run build` and `npm start` make
 * it. With `SERVER_BUNDLE=off` they run from source.
 */
import { bundleFolder, freshServerBundle, staleBecause } from '../../scripts/_server-bundle.ts';

export default async function setup(): Promise<void> {
  const folder = bundleFolder();
  if (!folder) return;
  await freshServerBundle();
  const stale = staleBecause(folder);
  if (stale) throw new Error(`the server bundle in ${folder} could not be made (${stale})`);
}
