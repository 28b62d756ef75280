/**
 * What every submission store engine must do (functions/submissions/store.ts), as one suite
 * that runs on each: the files under DATA_DIR (tests/unit) and PostgreSQL (tests/reliability).
 * Each test gets an empty store from `fresh`; `open` makes another instance on the same data,
 * the way a restarted server or a second instance would see it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { SubmissionRecord, SubmissionStore } from '../../functions/submissions/store.ts';

export interface StoreBacking {
  /** A new store instance on this backing's data. */
  open: () => SubmissionStore;
  /** Remove the data (and close what `open` returned). */
  cleanup: () => Promise<void>;
}

const HOUR = 60 * 60 * 1000;
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const at = (hours: number): string => new Date(T0 + hours * HOUR).toISOString();

let serial = 0;
/** A pending record; `n` makes company and link unique unless given. */
export function record(patch: Partial<SubmissionRecord> = {}): SubmissionRecord {
  serial += 1;
  return {
    id: `sub-${serial.toString(16).padStart(16, '0')}`,
    status: 'pending',
    submittedAt: at(0),
    company_name: `Contract Co ${serial}`,
    website_url: 'https://contract.example',
    benefit_description: 'Ten percent off the first year for startups.',
    category: 'saas',
    deal_value: '10% off',
    redemption_method: 'link',
    redemption_link: `https://contract.example/${serial}`,
    submitter_email: `founder${serial}@contract.example`,
    ...patch,
  };
}

/**
 * The contract, run against one engine. `instancesShare`: several instances may work on the
 * same data at once (PostgreSQL); otherwise one instance owns it (the files: one process).
 */
export function describeSubmissionStore(engine: string, fresh: () => Promise<StoreBacking>, instancesShare: boolean): void {
  describe(`submission store contract: ${engine}`, () => {
    let backing: StoreBacking | undefined;
    const opened: SubmissionStore[] = [];
    const start = async (): Promise<() => SubmissionStore> => {
      backing = await fresh();
      const made = backing;
      return () => {
        const store = made.open();
        opened.push(store);
        return store;
      };
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
      await backing?.cleanup();
      backing = undefined;
    });

    test('a stored record reads back the same, from this instance and from a new one; an existing id is not overwritten', async () => {
      const open = await start();
      const store = open();
      const first = record({ is_exclusive: true, logo_url: 'https://contract.example/logo.png' });
      expect(await store.put(first)).toEqual({ outcome: 'stored' });
      expect(await store.get(first.id)).toEqual(first);
      expect(await open().get(first.id)).toEqual(first);
      expect(await store.put({ ...first, company_name: 'Overwritten' })).toEqual({ outcome: 'exists' });
      expect(await open().get(first.id)).toEqual(first);
      expect(await store.get('sub-ffffffffffffffff')).toBeUndefined();
    });

    test('admission: the same company and link (any case, spacing, trailing slash) since the cut-off answers the earlier id; older ones do not count', async () => {
      const store = (await start())();
      const first = record({ company_name: 'Acme  Cloud', redemption_link: 'https://acme.example/deal/', submittedAt: at(0) });
      const admission = { duplicateSince: new Date(T0 - 24 * HOUR), maxPending: 100 };
      expect(await store.put(first, admission)).toEqual({ outcome: 'stored' });
      const same = record({ company_name: ' acme cloud ', redemption_link: 'HTTPS://ACME.example/deal', submittedAt: at(1) });
      expect(await store.put(same, { ...admission, duplicateSince: new Date(T0 - 23 * HOUR) })).toEqual({ outcome: 'duplicate', id: first.id });
      expect(await store.get(same.id)).toBeUndefined();
      // A day later the first no longer counts: a new record.
      const later = record({ company_name: 'Acme Cloud', redemption_link: 'https://acme.example/deal', submittedAt: at(25) });
      expect(await store.put(later, { ...admission, duplicateSince: new Date(T0 + HOUR) })).toEqual({ outcome: 'stored' });
      // Reviewed ones count too (a rejected spam sent again the same day is the same one).
      await store.update({ ...later, status: 'rejected', reviewedAt: at(26), reviewedBy: 'ada@example.com', rejectionReason: 'Spam' });
      const again = record({ company_name: 'ACME cloud', redemption_link: 'https://acme.example/deal', submittedAt: at(27) });
      expect(await store.put(again, { ...admission, duplicateSince: new Date(T0 + 3 * HOUR) })).toEqual({ outcome: 'duplicate', id: later.id });
    });

    test('admission: beyond maxPending waiting records the answer is full and nothing is stored; reviewed ones do not count', async () => {
      const store = (await start())();
      const admission = { duplicateSince: new Date(0), maxPending: 2 };
      const [a, b, c] = [record(), record(), record()];
      expect(await store.put(a, admission)).toEqual({ outcome: 'stored' });
      expect(await store.put(b, admission)).toEqual({ outcome: 'stored' });
      expect(await store.put(c, admission)).toEqual({ outcome: 'full' });
      expect(await store.get(c.id)).toBeUndefined();
      expect(await store.countPending()).toBe(2);
      // A duplicate is still answered when full.
      expect(await store.put(record({ company_name: a.company_name, redemption_link: a.redemption_link }), admission)).toEqual({ outcome: 'duplicate', id: a.id });
      await store.update({ ...a, status: 'approved', reviewedAt: at(1), reviewedBy: 'ada@example.com', dealId: 'd-00000001' });
      expect(await store.countPending()).toBe(1);
      expect(await store.put(c, admission)).toEqual({ outcome: 'stored' });
    });

    test('concurrent admissions: one record for the same submission, never more than maxPending', async () => {
      const open = await start();
      // Two instances of the store, as two server processes would have (one, where one process owns the data).
      const first = open();
      const stores = [first, instancesShare ? open() : first];
      const same = Array.from({ length: 12 }, () => record({ company_name: 'Race Co', redemption_link: 'https://race.example/deal' }));
      const answers = await Promise.all(same.map((r, i) => (stores[i % 2] as SubmissionStore).put(r, { duplicateSince: new Date(0), maxPending: 100 })));
      const stored = answers.filter((a) => a.outcome === 'stored');
      expect(stored).toHaveLength(1);
      const winner = same[answers.findIndex((a) => a.outcome === 'stored')] as SubmissionRecord;
      expect(answers.filter((a) => a.outcome === 'duplicate')).toEqual(Array.from({ length: 11 }, () => ({ outcome: 'duplicate', id: winner.id })));

      const many = Array.from({ length: 12 }, () => record());
      const filled = await Promise.all(many.map((r, i) => (stores[i % 2] as SubmissionStore).put(r, { duplicateSince: new Date(0), maxPending: 6 })));
      expect(filled.filter((a) => a.outcome === 'stored')).toHaveLength(5);
      expect(await open().countPending()).toBe(6);
    });

    test('update records a review of a pending record only; listings by status, newest first, paged, with the total', async () => {
      const open = await start();
      const store = open();
      const records = [0, 1, 2, 3, 4].map((h) => record({ submittedAt: at(h) }));
      for (const r of records) await store.put(r);
      const [r0, r1, r2] = records as [SubmissionRecord, SubmissionRecord, SubmissionRecord];
      const approved = { ...r1, status: 'approved' as const, reviewedAt: at(10), reviewedBy: 'ada@example.com', dealId: 'd-00000002' };
      expect(await store.update(approved)).toBe(true);
      expect(await store.update({ ...r1, status: 'rejected', reviewedAt: at(11), reviewedBy: 'bob@example.com', rejectionReason: 'late' })).toBe(false);
      expect(await store.update({ ...r2, status: 'rejected', reviewedAt: at(12), reviewedBy: 'ada@example.com', rejectionReason: 'Spam' })).toBe(true);
      expect(await store.update({ ...record(), status: 'rejected', reviewedAt: at(12) })).toBe(false);

      const reopened = open();
      expect(await reopened.get(r1.id)).toEqual(approved);
      const ids = async (status: 'pending' | 'approved' | 'rejected' | 'all', limit = 100, offset = 0) => {
        const { records: page, total } = await reopened.list(status, { limit, offset });
        return { ids: page.map((r) => r.id), total };
      };
      const byId = (i: number) => (records[i] as SubmissionRecord).id;
      expect(await ids('pending')).toEqual({ ids: [byId(4), byId(3), r0.id], total: 3 });
      expect(await ids('approved')).toEqual({ ids: [r1.id], total: 1 });
      expect(await ids('rejected')).toEqual({ ids: [r2.id], total: 1 });
      expect(await ids('all')).toEqual({ ids: [byId(4), byId(3), r2.id, r1.id, r0.id], total: 5 });
      expect(await ids('all', 2, 1)).toEqual({ ids: [byId(3), r2.id], total: 5 });
      expect(await ids('all', 2, 10)).toEqual({ ids: [], total: 5 });
      expect(await reopened.countPending()).toBe(3);
    });

    test('forgetEmails removes the e-mail of records reviewed before the cut-off, and only those', async () => {
      const open = await start();
      const store = open();
      const [old, recent, waiting] = [record(), record(), record({ submittedAt: at(-1000) })];
      for (const r of [old, recent, waiting]) await store.put(r);
      await store.update({ ...old, status: 'rejected', reviewedAt: at(0), reviewedBy: 'ada@example.com', rejectionReason: 'Spam' });
      await store.update({ ...recent, status: 'approved', reviewedAt: at(48), reviewedBy: 'ada@example.com', dealId: 'd-00000003' });
      expect(await store.forgetEmails(new Date(T0 + 24 * HOUR), new Date(T0 + 30 * 24 * HOUR))).toBe(1);
      const reopened = open();
      const forgotten = await reopened.get(old.id);
      expect(forgotten).toMatchObject({ status: 'rejected', rejectionReason: 'Spam', emailRemovedAt: new Date(T0 + 30 * 24 * HOUR).toISOString() });
      expect(forgotten?.submitter_email).toBeUndefined();
      expect(JSON.stringify(forgotten)).not.toContain(old.submitter_email);
      expect((await reopened.get(recent.id))?.submitter_email).toBe(recent.submitter_email);
      expect((await reopened.get(waiting.id))?.submitter_email).toBe(waiting.submitter_email);
      expect(await store.forgetEmails(new Date(T0 + 24 * HOUR), new Date(T0 + 31 * 24 * HOUR))).toBe(0);
      expect(await reopened.forgetEmails(new Date(T0 + 100 * HOUR), new Date(T0 + 31 * 24 * HOUR))).toBe(1);
      expect((await open().get(recent.id))?.submitter_email).toBeUndefined();
    });

    test('forgetEmail removes the e-mail of one record at once, whatever its review date; false when there is none', async () => {
      const open = await start();
      const store = open();
      const [notified, other] = [record(), record()];
      for (const r of [notified, other]) await store.put(r);
      await store.update({ ...notified, status: 'approved', reviewedAt: at(1), reviewedBy: 'ada@example.com', dealId: 'd-00000009' });
      expect(await store.forgetEmail(notified.id, new Date(T0 + 2 * HOUR))).toBe(true);
      const reopened = open();
      const forgotten = await reopened.get(notified.id);
      expect(forgotten).toMatchObject({ status: 'approved', dealId: 'd-00000009', emailRemovedAt: at(2) });
      expect(JSON.stringify(forgotten)).not.toContain(notified.submitter_email);
      expect((await reopened.get(other.id))?.submitter_email).toBe(other.submitter_email);
      expect(await store.forgetEmail(notified.id, new Date(T0 + 3 * HOUR))).toBe(false);
      expect(await store.forgetEmail('sub-ffffffffffffffff', new Date(T0 + 3 * HOUR))).toBe(false);
    });
  });
}
