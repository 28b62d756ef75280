/**
 * What the member's dashboard and alerts must do over real HTTP, as one suite run on each
 * database engine (tests/integration/dashboard.test.ts: SQLite; dashboard-postgres.test.ts:
 * PostgreSQL), with mail to a real SMTP server process: the profile (JSON and form), what
 * changed on a saved deal after an admin edits it and marking it seen, a removed deal flagged,
 * "expiring soon", "you may qualify" ruled by a program's stages and regions, and the alert
 * digest: sent once per change, with a one-click unsubscribe that works.
 */
import { describe, expect, test } from 'vitest';
import type { ReceivedMail, Receiver } from './notify-receivers.ts';
import { ADMIN, call, callFrom, expectError, login, submissionBody, type JsonResult, type TestAccount, type WriteServer } from './writes-harness.ts';

export interface DashboardBacking {
  /** The server (SMTP_URL set to `smtp()`, ALERT_DIGEST_HOURS=0), with ADMIN in its database. */
  env: () => WriteServer;
  smtp: () => Receiver<ReceivedMail>;
  addAccount: (account: TestAccount) => void;
}

const FORM = 'application/x-www-form-urlencoded';

interface DashboardBody {
  profile: Record<string, unknown>;
  saved: Array<{ kind: string; id: string; state: string; title: string; changes: Array<{ field: string; from?: unknown; to?: unknown }> }>;
  changed: number;
  expiringSoon: Array<{ id: string; expiryDate: string; daysLeft: number; saved: boolean }>;
  mayQualify: Array<{ id: string; reasons: string[] }>;
  submissions: Array<{
    id: string;
    companyName: string;
    websiteUrl: string;
    submittedAt: string;
    status: string;
    reviewedAt?: string;
    reason?: string;
    deal?: { id: string; title: string; url: string };
  }>;
}

/** `YYYY-MM-DD`, `days` from today (UTC). */
function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export function dashboardSuite(backing: DashboardBacking): void {
  let serial = 0;
  async function member() {
    const account: TestAccount = { email: `dash${++serial}-${Date.now()}@example.com`, role: 'member', password: 'dashboard-pass-1' };
    backing.addAccount(account);
    const { url } = backing.env();
    const cookie = await login(url, account);
    const dashboard = async () => {
      const answer = await call(url, 'GET', '/api/v1/me/dashboard', { cookie });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      return answer.body as DashboardBody;
    };
    const post = (path: string, body: unknown) => call(url, 'POST', path, { cookie, body });
    const form = (path: string, fields: Record<string, string>) =>
      fetch(`${url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': FORM, Origin: url, Cookie: cookie }, body: new URLSearchParams(fields) });
    return { email: account.email, password: account.password, cookie, dashboard, post, form };
  }
  async function adminWrite(method: string, path: string, body?: unknown): Promise<JsonResult> {
    const { url } = backing.env();
    const answer = await call(url, method, path, { cookie: await login(url, ADMIN), body });
    expect(answer.status, answer.text).toBeLessThan(300);
    return answer;
  }

  describe('dashboard', () => {
    test('401 without a session; a new member has an empty dashboard and profile', async () => {
      const { url } = backing.env();
      expectError(await call(url, 'GET', '/api/v1/me/dashboard'), 401, 'unauthorized');
      expectError(await call(url, 'POST', '/api/v1/me/profile', { body: { stage: 'seed' } }), 401, 'unauthorized');
      const m = await member();
      const board = await m.dashboard();
      expect(board).toMatchObject({ success: true, profile: { alerts: false }, saved: [], changed: 0, mayQualify: [], submissions: [] });
    });

    test('the profile: JSON and form posts replace it whole; bad values are 400 naming the field; cross-site posts 403', async () => {
      const m = await member();
      const saved = await m.post('/api/v1/me/profile', { stage: 'seed', region: 'fr', fundingUsd: 500000, builds: 'cloud hosting', alerts: true });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body).toEqual({ success: true, profile: { stage: 'seed', region: 'fr', fundingUsd: 500000, builds: 'cloud hosting', alerts: true } });
      expect((await m.dashboard()).profile).toEqual({ stage: 'seed', region: 'fr', fundingUsd: 500000, builds: 'cloud hosting', alerts: true });
      expect(expectError(await m.post('/api/v1/me/profile', { stage: 'unicorn' }), 400, 'validation_error').error).toMatch(/^`stage`/);
      expect(expectError(await m.post('/api/v1/me/profile', { fundingUsd: -1 }), 400, 'validation_error').error).toMatch(/^`fundingUsd`/);
      // A form: digits become a number, an unchecked box is alerts off, an empty select clears the fact.
      const posted = await m.form('/api/v1/me/profile', { stage: 'pre-seed', region: '', fundingUsd: '25000', builds: 'invoicing', next: '/account/' });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('location')).toBe('/account/?profile=1#profile-note');
      expect((await m.dashboard()).profile).toEqual({ stage: 'pre-seed', fundingUsd: 25000, builds: 'invoicing', alerts: false });
      const { url } = backing.env();
      const crossSite = await fetch(`${url}/api/v1/me/profile`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': FORM, Origin: 'https://evil.example' }, body: 'stage=seed' });
      expect(crossSite.status).toBe(403);
    });

    test('an admin edit of a saved deal is flagged until marked seen (one, then all by form); a deleted deal is flagged removed', async () => {
      const m = await member();
      expect((await m.post('/api/v1/me/saved', { kind: 'deal', id: 'd-gcp00002' })).status).toBe(200);
      expect((await m.post('/api/v1/me/saved', { kind: 'deal', id: 'd-not00003' })).status).toBe(200);
      expect((await m.dashboard()).changed).toBe(0);

      const lastDay = dayFromToday(40);
      await adminWrite('PUT', '/api/v1/deals', { id: 'd-gcp00002', value: 'Up to $350,000 in credits', expiryDate: lastDay });
      let board = await m.dashboard();
      expect(board.changed).toBe(1);
      expect(board.saved[0]).toMatchObject({ id: 'd-gcp00002', state: 'live' });
      expect(board.saved[0]?.changes.map((c) => c.field)).toEqual(['value', 'expiryDate']);
      expect(board.saved[0]?.changes[1]).toEqual({ field: 'expiryDate', to: lastDay });
      // Looking again does not clear it: only marking it seen does.
      expect((await m.dashboard()).changed).toBe(1);
      const seen = await m.post('/api/v1/me/saved/seen', { kind: 'deal', id: 'd-gcp00002' });
      expect(seen.body).toEqual({ success: true, marked: 1 });
      expect((await m.dashboard()).changed).toBe(0);
      expectError(await m.post('/api/v1/me/saved/seen', { kind: 'deal' }), 400, 'validation_error');

      await adminWrite('PUT', '/api/v1/deals', { id: 'd-gcp00002', status: 'active' });
      await adminWrite('DELETE', '/api/v1/deals?id=d-not00003');
      board = await m.dashboard();
      expect(board.changed).toBe(2);
      const byId = new Map(board.saved.map((item) => [item.id, item]));
      expect(byId.get('d-gcp00002')?.changes).toEqual([{ field: 'status', from: 'limited', to: 'active' }]);
      expect(byId.get('d-not00003')).toMatchObject({ state: 'removed' });
      expect(byId.get('d-not00003')?.changes[0]).toMatchObject({ field: 'state', to: 'removed' });
      const all = await m.form('/api/v1/me/saved/seen', {});
      expect(all.status).toBe(303);
      expect(all.headers.get('location')).toBe('/account/?seen=1#saved-heading');
      expect((await m.dashboard()).changed).toBe(0);
    });

    test("expiring soon lists open deals ending within the site's days, soonest first, marked when saved", async () => {
      const m = await member();
      await adminWrite('PUT', '/api/v1/deals', { id: 'd-her00009', status: 'active', expiryDate: dayFromToday(3) });
      await adminWrite('PUT', '/api/v1/deals', { id: 'd-hub00006', expiryDate: dayFromToday(90) });
      await m.post('/api/v1/me/saved', { kind: 'deal', id: 'd-her00009' });
      const soon = (await m.dashboard()).expiringSoon;
      expect(soon.find((deal) => deal.id === 'd-her00009')).toEqual(expect.objectContaining({ expiryDate: dayFromToday(3), daysLeft: 3, saved: true }));
      expect(soon.some((deal) => deal.id === 'd-hub00006')).toBe(false);
      expect(soon.map((deal) => deal.expiryDate)).toEqual([...soon.map((deal) => deal.expiryDate)].sort());
    });

    test("you may qualify: a program's stages and regions rule it in or out, with the reasons; what you build matches as search does", async () => {
      const m = await member();
      await adminWrite('PUT', '/api/v1/deals', { id: 'd-tec00008', status: 'active', stages: ['pre-seed', 'seed'], regions: ['europe'] });
      await m.post('/api/v1/me/profile', { stage: 'seed', region: 'fr' });
      let fits = (await m.dashboard()).mayQualify;
      expect(fits.find((deal) => deal.id === 'd-tec00008')?.reasons).toEqual(['For your stage (Seed)', 'Open in France']);
      await m.post('/api/v1/me/profile', { stage: 'series-a', region: 'fr' });
      expect((await m.dashboard()).mayQualify.some((deal) => deal.id === 'd-tec00008')).toBe(false);
      await m.post('/api/v1/me/profile', { stage: 'seed', region: 'us' });
      expect((await m.dashboard()).mayQualify.some((deal) => deal.id === 'd-tec00008')).toBe(false);
      await m.post('/api/v1/me/profile', { builds: 'cloud credits' });
      fits = (await m.dashboard()).mayQualify;
      expect(fits.length).toBeGreaterThan(0);
      expect(fits.every((deal) => deal.reasons.includes('Matches “cloud credits”'))).toBe(true);
      expect(fits.map((deal) => deal.id)).toContain('d-gcp00002');
    });
  });

  describe('alerts', () => {
    test('a digest goes to a member with alerts on when a saved deal changes, once; its one-click unsubscribe turns them off', async () => {
      const m = await member();
      const { url } = backing.env();
      await m.post('/api/v1/me/profile', { alerts: true });
      await m.post('/api/v1/me/saved', { kind: 'deal', id: 'd-str00005' });
      const before = backing.smtp().received.length;
      const run = async () => (await adminWrite('POST', '/api/v1/admin/alerts')).body as { ran: boolean; mailed: number };
      expect(await run()).toMatchObject({ ran: true });
      expect(
        backing
          .smtp()
          .received.slice(before)
          .filter((mail) => mail.to.includes(m.email)),
      ).toEqual([]);

      await adminWrite('PUT', '/api/v1/deals', { id: 'd-str00005', value: '$250 off incorporation' });
      expect((await run()).mailed).toBeGreaterThanOrEqual(1);
      const mine = backing.smtp().received.filter((mail) => mail.to.includes(m.email));
      expect(mine).toHaveLength(1);
      const mail = mine[0] as ReceivedMail;
      expect(mail.headers.get('subject')).toMatch(/^A saved item changed on /);
      expect(mail.text).toContain('Value: $100 off incorporation → $250 off incorporation');
      expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const oneClick = /^<([^>]+)>$/.exec(mail.headers.get('list-unsubscribe') ?? '')?.[1];
      expect(oneClick).toMatch(/\/api\/v1\/alerts\/unsubscribe\?token=/);

      // Told once: the next round has nothing new for this member.
      await run();
      expect(backing.smtp().received.filter((received) => received.to.includes(m.email))).toHaveLength(1);

      // RFC 8058: the mail client POSTs `List-Unsubscribe=One-Click` to the header's address, with no session.
      const path = new URL(oneClick as string).pathname + new URL(oneClick as string).search;
      const stopped = await fetch(`${url}${path}`, { method: 'POST', headers: { 'Content-Type': FORM }, body: 'List-Unsubscribe=One-Click' });
      expect(stopped.status, `${oneClick as string} ${await stopped.clone().text()}`).toBe(200);
      expect((await m.dashboard()).profile.alerts).toBe(false);
      expectError(await call(url, 'POST', '/api/v1/alerts/unsubscribe?token=forged', {}), 400, 'validation_error');
      const page = await fetch(`${url}/api/v1/alerts/unsubscribe`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': FORM }, body: 'token=forged' });
      expect(page.headers.get('location')).toBe('/account/unsubscribe?error=link');
    });

    test('running a round is for admins only', async () => {
      const m = await member();
      expectError(await m.post('/api/v1/admin/alerts', {}), 403, 'forbidden');
      expectError(await call(backing.env().url, 'POST', '/api/v1/admin/alerts'), 401, 'unauthorized');
    });
  });

  describe('submissions by members', () => {
    // Each test submits from its own loopback address: the per-address budget is 5 an hour.
    let source = 0;
    const from = () => `127.0.${40 + (serial % 50)}.${++source}`;
    const submitAs = (body: Record<string, unknown>, options: { cookie?: string; origin?: string | null } = {}) =>
      callFrom(from(), backing.env().url, 'POST', '/api/v1/submit-deal', { body, ...options });
    const record = async (id: string) => {
      const answer = await adminWrite('GET', `/api/v1/admin/submissions?status=all&id=${id}`);
      return (answer.body as { submissions: Array<Record<string, unknown>> }).submissions[0];
    };

    test("a member's submission is linked and shows as waiting; a visitor's, a cross-site one and somebody's duplicate are not", async () => {
      const m = await member();
      const word = `Linked${serial}x${Date.now()}`;
      const mine = await submitAs({ ...submissionBody(word, 1), submitter_email: m.email }, { cookie: m.cookie });
      expect(mine.status, mine.text).toBe(201);
      const id = (mine.body as { id: string }).id;
      // The anonymous path's answer, unchanged.
      expect(mine.body).toEqual({ success: true, id });
      const board = await m.dashboard();
      expect(board.submissions).toEqual([{ id, companyName: `${word} Co 1`, websiteUrl: `https://${word.toLowerCase()}.example`, submittedAt: expect.any(String), status: 'pending' }]);

      // Not linked: no cookie; a cookie on a cross-site request (no Origin, no Sec-Fetch-Site; and another site's Origin); another member's duplicate.
      const anonymous = await submitAs(submissionBody(word, 2));
      const noOrigin = await submitAs(submissionBody(word, 3), { cookie: m.cookie, origin: null });
      const elsewhere = await submitAs(submissionBody(word, 4), { cookie: m.cookie, origin: 'https://evil.example' });
      for (const answer of [anonymous, noOrigin, elsewhere]) expect(answer.status, answer.text).toBe(201);
      const other = await member();
      const again = await submitAs(submissionBody(word, 1), { cookie: other.cookie });
      expect(again.body).toMatchObject({ id, duplicate: true });
      expect((await m.dashboard()).submissions.map((s) => s.id)).toEqual([id]);
      expect((await other.dashboard()).submissions).toEqual([]);
    });

    test('the dashboard follows the review: published with the deal, or not published with the reason', async () => {
      const m = await member();
      const word = `Reviewed${serial}x${Date.now()}`;
      const first = (await submitAs(submissionBody(word, 1), { cookie: m.cookie })).body as { id: string };
      const second = (await submitAs(submissionBody(word, 2), { cookie: m.cookie })).body as { id: string };
      const approved = await adminWrite('POST', '/api/v1/admin/submissions/approve', { id: first.id });
      const deal = (approved.body as { deal: { id: string; slug: string } }).deal;
      await adminWrite('POST', '/api/v1/admin/submissions/reject', { id: second.id, reason: 'The offer is not open to startups.' });
      const board = await m.dashboard();
      expect(board.submissions.map((s) => s.id)).toEqual([second.id, first.id]);
      expect(board.submissions[0]).toMatchObject({ status: 'rejected', reason: 'The offer is not open to startups.', reviewedAt: expect.any(String) });
      expect(board.submissions[1]).toMatchObject({ status: 'approved', deal: { id: deal.id, url: `/deals/${deal.slug}/` }, reviewedAt: expect.any(String) });
    });

    test('the export lists submissions with their state; deleting the account unlinks them and removes the address from each record', async () => {
      const m = await member();
      const word = `Private${serial}x${Date.now()}`;
      const { id } = (await submitAs({ ...submissionBody(word, 1), submitter_email: m.email }, { cookie: m.cookie })).body as { id: string };
      const exported = await fetch(`${backing.env().url}/api/v1/me/export`, { headers: { Cookie: m.cookie, 'Sec-Fetch-Site': 'same-origin' } });
      expect(exported.status).toBe(200);
      const data = (await exported.json()) as { submissions: unknown[] };
      expect(data.submissions).toEqual([{ id, companyName: `${word} Co 1`, websiteUrl: `https://${word.toLowerCase()}.example`, submittedAt: expect.any(String), status: 'pending' }]);
      expect(await record(id)).toMatchObject({ id, submitter_email: m.email });

      const deleted = await m.post('/api/v1/me/delete', { password: m.password });
      expect(deleted.status, deleted.text).toBe(200);
      const kept = await record(id);
      expect(kept).toMatchObject({ id, status: 'pending', company_name: `${word} Co 1` });
      expect(kept).not.toHaveProperty('submitter_email');
    });
  });
}
