/**
 * The member's dashboard and alerts on the embedded SQLite database (the default): the shared
 * suite (tests/helpers/dashboard-cases.ts) over a real server and a real SMTP server process,
 * plus the pure parts: a funding cap read from a deal's eligibility, and changes in words.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { changeWords } from '../../src/catalog/change-words.ts';
import { fundingCapUsd } from '../../src/catalog/may-qualify.ts';
import { changesSince } from '../../src/catalog/saved-changes.ts';
import { dashboardSuite } from '../helpers/dashboard-cases.ts';
import { startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { addAccount, ADMIN, useWriteServer, type WriteServer } from '../helpers/writes-harness.ts';

let smtp: Receiver<ReceivedMail>;
const env: Record<string, string> = { ALERT_DIGEST_HOURS: '0', SMTP_FROM: 'Deals <deals@example.com>' };
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await smtp?.close();
});
let server: WriteServer;
useWriteServer(
  [ADMIN],
  (started) => {
    server = started;
  },
  env,
);

dashboardSuite({ env: () => server, smtp: () => smtp, addAccount: (account) => addAccount(server.dataDir, account) });

describe('the pure parts', () => {
  test('a funding cap is read only where eligibility states one in dollars', () => {
    expect(fundingCapUsd(['Raised less than about $5 million'])).toBe(5_000_000);
    expect(fundingCapUsd(['Online application', 'Raised less than $8 million in total funding'])).toBe(8_000_000);
    expect(fundingCapUsd(['Under $500k in funding'])).toBe(500_000);
    expect(fundingCapUsd(['Raised less than $1,500,000'])).toBe(1_500_000);
    expect(fundingCapUsd(["Raised less than Miro's funding threshold"])).toBeUndefined();
    expect(fundingCapUsd(['Fewer than 50 employees, up to $5 million revenue'])).toBeUndefined();
  });

  test('changes are listed in a fixed order and worded for people', () => {
    const changes = changesSince({ state: 'live', value: '$5,000', status: 'active' }, { state: 'expired', value: '$10,000', status: 'expired', expiryDate: '2026-12-01' });
    expect(changes.map((c) => c.field)).toEqual(['state', 'value', 'status', 'expiryDate']);
    expect(changes.map(changeWords)).toEqual(['Listing: listed → expired', 'Value: $5,000 → $10,000', 'Status: Live → Expired', 'Last day: none → 1 December 2026']);
    expect(changesSince(undefined, { state: 'live' })).toEqual([]);
  });
});
