/**
 * What a member's saved items must do over real HTTP, as one suite run on each database engine
 * (tests/integration/saved-items.test.ts: SQLite; saved-items-postgres.test.ts: PostgreSQL):
 * save, list and remove (JSON and form posts), idempotency, 401/403/404, the 400 `conflict` of a full list, cross-site posts
 * refused, form posts answered 303 to a safe `next` only, a rename kept by id, an expired deal
 * shown `expired` and a deleted one `removed` with its saved title.
 */
import { describe, expect, test } from 'vitest';
import type { Database } from '../../functions/db/database.ts';
import { MAX_SAVED_ITEMS } from '../../src/schemas/saved.ts';
import { ADMIN, call, expectError, login, takeErrors, type JsonResult, type TestAccount, type WriteServer } from './writes-harness.ts';

export interface SavedBacking {
  /** The server, with ADMIN and MEMBER in its database. */
  env: () => WriteServer;
  /** Add an account where the server reads them (its DATABASE_URL too). */
  addAccount: (account: TestAccount) => void;
  /** A connection to the server's database, for filling a list to its limit. */
  database: () => Database;
}

const FORM = 'application/x-www-form-urlencoded';
const AWS = 'd-aws00001';
const STRIPE = 'd-str00005';
const INVOICENEST = 's-inv00001';

interface Saved {
  items: Array<{ kind: string; id: string; state: string; title: string; slug: string; url?: string; status?: string }>;
  ids: { deal: string[]; startup: string[] };
  total: number;
}

export function savedItemsSuite(backing: SavedBacking): void {
  let serial = 0;
  /** A fresh confirmed member for each test: its own list. */
  async function member(): Promise<{
    email: string;
    cookie: string;
    get: () => Promise<Saved>;
    post: (body: unknown) => Promise<JsonResult>;
    form: (fields: Record<string, string>, cookie?: string) => Promise<Response>;
  }> {
    const account: TestAccount = { email: `saver${++serial}-${Date.now()}@example.com`, role: 'member', password: 'saver-password-1' };
    backing.addAccount(account);
    const { url } = backing.env();
    const cookie = await login(url, account);
    const get = async () => {
      const answer = await call(url, 'GET', '/api/v1/me/saved', { cookie });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      return answer.body as Saved;
    };
    const post = (body: unknown) => call(url, 'POST', '/api/v1/me/saved', { cookie, body });
    const form = (fields: Record<string, string>, withCookie: string | undefined = cookie) =>
      fetch(`${url}/api/v1/me/saved`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': FORM, Origin: url, ...(withCookie ? { Cookie: withCookie } : {}) },
        body: new URLSearchParams(fields),
      });
    return { email: account.email, cookie, get, post, form };
  }

  describe('saved items', () => {
    test('save, list newest first with the catalog served now, save again (idempotent), remove with DELETE and with action=remove', async () => {
      const m = await member();
      expect((await m.get()).items).toEqual([]);
      const first = await m.post({ kind: 'deal', id: AWS });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toEqual({ success: true, kind: 'deal', id: AWS, saved: true, total: 1 });
      expect(first.headers.get('cache-control')).toBe('private, no-store');
      await m.post({ kind: 'startup', id: INVOICENEST });
      expect((await m.post({ kind: 'deal', id: AWS })).body).toMatchObject({ saved: true, total: 2 });
      const list = await m.get();
      expect(list.items.map((i) => [i.kind, i.id, i.state])).toEqual([
        ['startup', INVOICENEST, 'live'],
        ['deal', AWS, 'live'],
      ]);
      expect(list.items[1]).toMatchObject({ title: 'AWS Activate Founders', slug: 'aws-activate', url: '/deals/aws-activate/', status: 'active' });
      expect(list.ids).toEqual({ deal: [AWS], startup: [INVOICENEST] });
      const { url } = backing.env();
      const deleted = await call(url, 'DELETE', `/api/v1/me/saved?kind=deal&id=${AWS}`, { cookie: m.cookie });
      expect(deleted.body).toEqual({ success: true, kind: 'deal', id: AWS, saved: false, total: 1 });
      // Removing again is no error.
      expect((await call(url, 'DELETE', `/api/v1/me/saved?kind=deal&id=${AWS}`, { cookie: m.cookie })).status).toBe(200);
      expect((await m.post({ kind: 'startup', id: INVOICENEST, action: 'remove' })).body).toMatchObject({ saved: false, total: 0 });
      expect((await m.get()).total).toBe(0);
      expectError(await call(url, 'DELETE', '/api/v1/me/saved?kind=idea&id=x', { cookie: m.cookie }), 400, 'validation_error');
    });

    test('without a session 401; cross-site 403; an unknown id 404; a bad kind 400; admins may save too', async () => {
      const { url } = backing.env();
      expectError(await call(url, 'GET', '/api/v1/me/saved'), 401, 'unauthorized');
      expectError(await call(url, 'POST', '/api/v1/me/saved', { body: { kind: 'deal', id: AWS } }), 401, 'unauthorized');
      expectError(await call(url, 'DELETE', `/api/v1/me/saved?kind=deal&id=${AWS}`), 401, 'unauthorized');
      const m = await member();
      expectError(await call(url, 'POST', '/api/v1/me/saved', { cookie: m.cookie, body: { kind: 'deal', id: AWS }, origin: 'https://evil.example' }), 403, 'forbidden');
      expectError(await call(url, 'DELETE', `/api/v1/me/saved?kind=deal&id=${AWS}`, { cookie: m.cookie, origin: 'https://evil.example' }), 403, 'forbidden');
      const crossSiteForm = await fetch(`${url}/api/v1/me/saved`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': FORM, Origin: 'https://evil.example', Cookie: m.cookie },
        body: new URLSearchParams({ kind: 'deal', id: AWS }),
      });
      expect(crossSiteForm.status).toBe(403);
      // No CORS grant to another origin, not even a preflight.
      const preflight = await fetch(`${url}/api/v1/me/saved`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const unknown = expectError(await m.post({ kind: 'deal', id: 'd-nothing01' }), 404, 'not_found');
      expect(unknown.error).toBe('No deal has id `d-nothing01`.');
      // A deal id is no startup id.
      expectError(await m.post({ kind: 'startup', id: AWS }), 404, 'not_found');
      expectError(await m.post({ kind: 'idea', id: AWS }), 400, 'validation_error');
      expect((await m.get()).total).toBe(0);
      const admin = await login(url, ADMIN);
      expect((await call(url, 'POST', '/api/v1/me/saved', { cookie: admin, body: { kind: 'deal', id: STRIPE } })).status).toBe(200);
      expect(((await call(url, 'GET', '/api/v1/me/saved', { cookie: admin })).body as Saved).ids.deal).toEqual([STRIPE]);
    });

    test('form posts: 303 back to a safe next with a flag; an unsafe next goes to /account/saved/; without a session to /login?next=', async () => {
      const m = await member();
      const saved = await m.form({ kind: 'deal', id: AWS, next: '/deals/?category=cloud' });
      expect(saved.status).toBe(303);
      expect(saved.headers.get('location')).toBe('/deals/?category=cloud&saved=1#saved-note');
      expect(saved.headers.get('cache-control')).toBe('no-store');
      for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '']) {
        const answer = await m.form({ kind: 'deal', id: STRIPE, next });
        expect(answer.headers.get('location'), next).toBe('/account/saved/?saved=1#saved-note');
      }
      const removed = await m.form({ kind: 'deal', id: AWS, action: 'remove', next: '/account/saved/' });
      expect(removed.headers.get('location')).toBe('/account/saved/?removed=1#removed-note');
      expect((await m.get()).ids.deal).toEqual([STRIPE]);
      const anonymous = await m.form({ kind: 'deal', id: AWS, next: '/deals/aws-activate/' }, '');
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get('location')).toBe('/login?next=%2Fdeals%2Faws-activate%2F');
      // Sign-in by form goes back there (a safe path only).
      const { url } = backing.env();
      const signIn = (next: string, password = ADMIN.password) =>
        fetch(`${url}/api/v1/auth/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': FORM, Origin: url },
          body: new URLSearchParams({ email: ADMIN.email, password, next }),
        });
      expect((await signIn('/deals/aws-activate/')).headers.get('location')).toBe('/deals/aws-activate/');
      expect((await signIn('//evil.example/')).headers.get('location')).toBe('/admin/');
      // A mistyped password shows the sign-in page again, still on its way back there.
      expect((await signIn('/deals/aws-activate/', 'not-the-password')).headers.get('location')).toBe('/login?error=invalid&next=%2Fdeals%2Faws-activate%2F');
      expect((await signIn('//evil.example/', 'not-the-password')).headers.get('location')).toBe('/login?error=invalid');
    });

    test('by id: a renamed deal keeps its place under its new name; an expired deal shows expired; a deleted one shows removed with its saved title', async () => {
      const m = await member();
      const { url } = backing.env();
      const admin = await login(url, ADMIN);
      for (const id of ['d-dig00007', 'd-tec00008', 'd-yc000004', 'd-her00009']) expect((await m.post({ kind: 'deal', id })).status).toBe(200);
      const write = async (method: string, path: string, body?: unknown) => {
        const answer = await call(url, method, path, { cookie: admin, body });
        expect(answer.status, answer.text).toBe(200);
      };
      await write('PUT', '/api/v1/deals', { id: 'd-dig00007', slug: 'digitalocean-hatch-2', title: 'DigitalOcean Hatch (renamed)' });
      await write('PUT', '/api/v1/deals', { id: 'd-tec00008', status: 'expired' });
      await write('DELETE', '/api/v1/deals?id=d-yc000004');
      const byId = new Map((await m.get()).items.map((i) => [i.id, i]));
      expect(byId.get('d-dig00007')).toMatchObject({ state: 'live', title: 'DigitalOcean Hatch (renamed)', slug: 'digitalocean-hatch-2', url: '/deals/digitalocean-hatch-2/' });
      expect(byId.get('d-tec00008')).toMatchObject({ state: 'expired', status: 'expired', url: '/deals/techstars/' });
      expect(byId.get('d-her00009')).toMatchObject({ state: 'expired' });
      expect(byId.get('d-yc000004')).toEqual(expect.objectContaining({ state: 'removed', title: 'Y Combinator', slug: 'y-combinator' }));
      expect(byId.get('d-yc000004')?.url).toBeUndefined();
      // A removed record can still be taken off the list; it can no longer be saved.
      expectError(await m.post({ kind: 'deal', id: 'd-yc000004' }), 404, 'not_found');
      expect((await m.post({ kind: 'deal', id: 'd-yc000004', action: 'remove' })).body).toMatchObject({ saved: false, total: 3 });
    });

    test(`a list holds at most ${MAX_SAVED_ITEMS} items: one more is a 400 conflict; removing one makes room`, async () => {
      const m = await member();
      const db = backing.database();
      try {
        for (let i = 0; i < MAX_SAVED_ITEMS; i++) {
          await db.run("INSERT INTO saved_items (account, kind, record_id, title, slug, saved_at) VALUES ($1, 'deal', $2, $3, $4, $5)", [
            m.email,
            `d-gone${String(i).padStart(5, '0')}`,
            `Gone ${i}`,
            `gone-${i}`,
            new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          ]);
        }
      } finally {
        await db.close();
      }
      const full = expectError(await m.post({ kind: 'deal', id: AWS }), 400, 'conflict');
      expect(full.error).toBe(`Your list holds ${MAX_SAVED_ITEMS} items, the most an account keeps.`);
      const list = await m.get();
      expect(list.total).toBe(MAX_SAVED_ITEMS);
      expect(list.items[0]).toMatchObject({ id: 'd-gone00499', state: 'removed', title: 'Gone 499' });
      expect((await m.post({ kind: 'deal', id: 'd-gone00000', action: 'remove' })).status).toBe(200);
      expect((await m.post({ kind: 'deal', id: AWS })).body).toMatchObject({ saved: true, total: MAX_SAVED_ITEMS });
      expect(takeErrors(backing.env().server)).toEqual([]);
    });
  });
}
