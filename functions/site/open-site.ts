/**
 * The site handler with everything its pages read, for any host: the built files of
 * `<distDir>/client`, Astro's on-demand renderer from `<distDir>/server` (also kept on
 * `deps.render` for live pages and admin previews), the submission form's posts and the
 * member pages' reads. The Node server and the Netlify function both open it here, so a page
 * reads the same things wherever it is rendered.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Deps } from '../deps.ts';
import { signedInBilling } from '../billing/member-billing.ts';
import { signedInDashboard } from '../members/dashboard.ts';
import { signedInSubmitPrefill } from '../members/member-submissions.ts';
import { signedInPrivacy } from '../members/privacy.ts';
import { signedInSavedList } from '../members/saved.ts';
import { submitForm } from '../writes/submit-deal.ts';
import type { SiteHandler } from '../http/app.ts';
import { createSite, loadAstroRender } from './site.ts';

/**
 * Load the renderer (when the build has one) and make the site handler.
 * @example createApp(deps, { site: await openSite(deps) })
 */
export async function openSite(deps: Deps): Promise<SiteHandler> {
  const { distDir } = deps.config;
  const clientDir = existsSync(join(distDir, 'client')) ? join(distDir, 'client') : distDir;
  deps.render = await loadAstroRender(distDir);
  return createSite(deps, {
    clientDir,
    render: deps.render,
    submit: (request, address) => submitForm(request, deps, address),
    member: {
      savedItems: (request) => signedInSavedList(request, deps),
      dashboard: (request) => signedInDashboard(request, deps),
      privacy: (request) => signedInPrivacy(request, deps),
      billing: (request) => signedInBilling(request, deps),
      submitPrefill: (request) => signedInSubmitPrefill(request, deps),
    },
  });
}
