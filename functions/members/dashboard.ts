/**
 * The member's dashboard (issue 18, item 4): GET /api/v1/me/dashboard, the profile it matches
 * deals against (GET and POST /api/v1/me/profile), and marking saved items as seen (POST
 * /api/v1/me/saved/seen). For people in a browser only, like the saved items (saved.ts): the
 * same-origin session cookie; forms answered with a 303 back to the page, JSON with JSON.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { isFormBody } from '../http/request-body.ts';
import { validBody } from '../http/valid-body.ts';
import { currentSession, memberOrForm, requireMember, requireSameOrigin } from '../auth/guard.ts';
import { redirect } from '../auth/sign-in.ts';
import { needsPlan, planPage, requirePlan } from '../billing/plan-guard.ts';
import { utcDay } from '../utc-day.ts';
import { withReviewStates } from './member-submissions.ts';
import { SHOWN_SUBMISSIONS } from './submission-links.ts';
import { dashboardParts } from '../../src/catalog/dashboard.ts';
import { snapshotOf } from '../../src/catalog/saved-changes.ts';
import { localPath, withFlag } from '../../src/local-path.ts';
import { MemberProfileRequestSchema, SeenRequestSchema, type Dashboard, type MemberProfile } from '../../src/schemas/dashboard.ts';

export type DashboardDeps = Pick<Deps, 'state' | 'clock' | 'auth' | 'config' | 'submissions'>;

/** The member's dashboard page; where a member lands after signing in. */
export const DASHBOARD_PAGE = '/account/';
const PERSONAL = { 'Cache-Control': 'private, no-store' };

/** GET /me/dashboard. */
export async function getDashboard(request: Request, deps: DashboardDeps): Promise<Response> {
  const session = await requireMember(request, deps);
  await requirePlan('dashboard', session, deps);
  return answerResponse(request, jsonAnswer(200, await dashboardOf(session.email, deps), PERSONAL));
}

/** The dashboard of the request's session (the server-rendered /account/ page): undefined without one, `plan_required` when the dashboard needs a plan the member lacks. */
export async function signedInDashboard(request: Request, deps: DashboardDeps): Promise<Dashboard | 'plan_required' | undefined> {
  const session = await currentSession(request, deps);
  if (!session) return undefined;
  return (await needsPlan('dashboard', session, deps)) ? 'plan_required' : dashboardOf(session.email, deps);
}

/**
 * The dashboard of an account. Items saved before facts were kept get what is served now as
 * their starting point (kept where accounts may be written), so their next change shows.
 */
export async function dashboardOf(email: string, deps: DashboardDeps): Promise<Dashboard> {
  const { rows, profile, links } = await deps.auth.accounts.memberData(async ({ saved, profiles, submissions }) => ({
    rows: await saved.list(email),
    profile: await profiles.get(email),
    links: await submissions.list(email, SHOWN_SUBMISSIONS),
  }));
  const catalog = deps.state().catalog;
  const parts = dashboardParts(rows, profile, catalog, utcDay(deps.clock()), catalog.site.freshness.expiringWithinDays);
  if (parts.baseline.length > 0 && deps.auth.accounts.writable) await deps.auth.accounts.memberData(({ saved }) => saved.markSeen(email, parts.baseline));
  const submitted = await withReviewStates(links, deps);
  return { success: true, profile, saved: parts.saved, changed: parts.changed, expiringSoon: parts.expiringSoon, mayQualify: parts.mayQualify, submissions: submitted };
}

/** GET /me/profile. */
export async function getProfile(request: Request, deps: DashboardDeps): Promise<Response> {
  const session = await requireMember(request, deps);
  await requirePlan('dashboard', session, deps);
  const profile = await deps.auth.accounts.memberData(({ profiles }) => profiles.get(session.email));
  return answerResponse(request, jsonAnswer(200, { success: true, profile }, PERSONAL));
}

/** POST /me/profile: replace the profile (a form's unchecked alerts box turns alerts off). */
export async function postProfile(request: Request, deps: DashboardDeps): Promise<Response> {
  const form = isFormBody(request);
  const session = await memberOrForm(request, deps, form);
  requireSameOrigin(request, deps);
  const { next, ...profile } = await validBody(request, MemberProfileRequestSchema, 4 * 1024);
  const back = localPath(next) ?? DASHBOARD_PAGE;
  if (!session) return redirect(`/login?next=${encodeURIComponent(back)}`);
  if (form && (await needsPlan('dashboard', session, deps))) return redirect(planPage('dashboard'));
  await requirePlan('dashboard', session, deps);
  await deps.auth.accounts.memberData(({ profiles }) => profiles.put(session.email, profile as MemberProfile, deps.clock()), 'Saving your profile');
  if (form) return redirect(withFlag(back, 'profile', 'profile-note'));
  return answerResponse(request, jsonAnswer(200, { success: true, profile }, PERSONAL));
}

/** POST /me/saved/seen: mark one saved item (`kind` and `id`) or all of them as seen: their changes are no longer flagged. */
export async function postSeen(request: Request, deps: DashboardDeps): Promise<Response> {
  const form = isFormBody(request);
  const session = await memberOrForm(request, deps, form);
  requireSameOrigin(request, deps);
  const body = await validBody(request, SeenRequestSchema, 4 * 1024);
  if (!session) return redirect(`/login?next=${encodeURIComponent(DASHBOARD_PAGE)}`);
  if (form && (await needsPlan('dashboard', session, deps))) return redirect(planPage('dashboard'));
  await requirePlan('dashboard', session, deps);
  const catalog = deps.state().catalog;
  const today = utcDay(deps.clock());
  const marked = await deps.auth.accounts.memberData(async ({ saved }) => {
    const rows = (await saved.list(session.email)).filter((row) => body.kind === undefined || (row.kind === body.kind && row.recordId === body.id));
    await saved.markSeen(
      session.email,
      rows.map((row) => ({ kind: row.kind, recordId: row.recordId, snapshot: snapshotOf(row, catalog, today) })),
    );
    return rows.length;
  }, 'Marking items as seen');
  if (form) return redirect(withFlag(DASHBOARD_PAGE, 'seen', 'saved-heading'));
  return answerResponse(request, jsonAnswer(200, { success: true, marked }, PERSONAL));
}
