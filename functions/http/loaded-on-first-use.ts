/**
 * The handlers of the route table whose modules are loaded at their first request rather than
 * at start-up: every admin write, review, preview, draft list, history and logo route reaches
 * the content pipeline (YAML that keeps comments, front matter, diffs, the build's checks).
 * Those modules took about 165 ms of every start, and no read needs them (docs/performance.md,
 * "Modules a read never needs"). A module is loaded once, by the first request that needs it;
 * the route table names these handlers as it names any other.
 */
import type { Handler } from '../deps.ts';

export const postDeals = onFirstUse(async () => (await import('../writes/admin-deals.ts')).postDeals);
export const deleteDeals = onFirstUse(async () => (await import('../writes/admin-deals.ts')).deleteDeals);
export const putDeal = onFirstUse(async () => (await import('../writes/admin-records.ts')).putRecord((await import('../writes/record-kinds.ts')).DEALS));

export const getAdminStartups = onFirstUse(async () => (await import('../writes/admin-startups.ts')).getAdminStartups);
export const postStartups = onFirstUse(async () => (await import('../writes/admin-startups.ts')).postStartups);
export const deleteStartups = onFirstUse(async () => (await import('../writes/admin-startups.ts')).deleteStartups);
export const putStartup = onFirstUse(async () => (await import('../writes/admin-records.ts')).putRecord((await import('../writes/record-kinds.ts')).STARTUPS));

export const getDealHistory = onFirstUse(async () => (await import('../writes/record-history.ts')).getDealHistory);
export const getStartupHistory = onFirstUse(async () => (await import('../writes/record-history.ts')).getStartupHistory);
export const postDealRevert = onFirstUse(async () => (await import('../writes/record-history.ts')).postDealRevert);
export const postStartupRevert = onFirstUse(async () => (await import('../writes/record-history.ts')).postStartupRevert);

export const getDealLogo = onFirstUse(async () => (await import('../writes/admin-logos.ts')).getDealLogo);
export const putDealLogo = onFirstUse(async () => (await import('../writes/admin-logos.ts')).putDealLogo);
export const deleteDealLogo = onFirstUse(async () => (await import('../writes/admin-logos.ts')).deleteDealLogo);
export const getStartupLogo = onFirstUse(async () => (await import('../writes/admin-logos.ts')).getStartupLogo);
export const putStartupLogo = onFirstUse(async () => (await import('../writes/admin-logos.ts')).putStartupLogo);
export const deleteStartupLogo = onFirstUse(async () => (await import('../writes/admin-logos.ts')).deleteStartupLogo);

export const getSubmissions = onFirstUse(async () => (await import('../writes/review.ts')).getSubmissions);
export const approveSubmission = onFirstUse(async () => (await import('../writes/review.ts')).approveSubmission);
export const rejectSubmission = onFirstUse(async () => (await import('../writes/review.ts')).rejectSubmission);

export const getDrafts = onFirstUse(async () => (await import('../reads/admin-drafts.ts')).getDrafts);
export const getPreview = onFirstUse(async () => (await import('../site/preview.ts')).getPreview);
export const postPreview = onFirstUse(async () => (await import('../site/preview.ts')).postPreview);

/** A handler that loads the real one at its first call and hands every call to it. */
function onFirstUse(load: () => Promise<Handler>): Handler {
  let loaded: Promise<Handler> | undefined;
  return async (request, deps, context) => (await (loaded ??= load()))(request, deps, context);
}
