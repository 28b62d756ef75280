/**
 * The Netlify scheduled function for the hourly jobs (functions/adapters/netlify-hourly.ts):
 * alert digests and the sweep of unconfirmed sign-ups. Netlify reads `config` from this file
 * without running it; a scheduled function has no URL of its own.
 */
export { default } from '../../functions/adapters/netlify-hourly.ts';

export const config = {
  schedule: '@hourly',
};
