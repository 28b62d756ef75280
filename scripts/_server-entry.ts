/**
 * What the server bundle holds (scripts/_server-bundle.ts): the settings and the server process,
 * everything `npm start` and `npm run serve` run after the compile cache is on.
 */
export { settings } from './_settings.ts';
export { buildAndServe, runServer } from './_serve-process.ts';
