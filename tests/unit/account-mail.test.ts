/**
 * Where account mail can go (functions/auth/account-mail.ts): an SMTP server, or the outbox
 * folder; a serverless function has no outbox, so without SMTP_URL the requests that must mail
 * (sign-up, password reset, sign-in links) are refused with a 503 naming the setting, before
 * anything is stored, instead of the mail being lost.
 */
import { expect, test } from 'vitest';
import { AccountMail } from '../../functions/auth/account-mail.ts';
import type { NotifyConfig } from '../../functions/config.ts';
import { ApiError } from '../../functions/http/errors.ts';
import { createLogger } from '../../functions/ops/log.ts';

const log = createLogger(() => undefined);
const noSmtp: NotifyConfig = { smtp: undefined, webhookUrl: undefined, adminEmails: undefined, timeoutMs: 1000 };

test('with an outbox (a server of its own), mail always has somewhere to go', () => {
  const mail = new AccountMail(noSmtp, '/tmp/unused', log);
  expect(mail.deliverable).toBe(true);
  expect(() => mail.assertDeliverable('Signing up')).not.toThrow();
});

test('without an outbox or SMTP (a serverless function), 503 naming SMTP_URL; sending fails instead of writing anywhere', async () => {
  const mail = new AccountMail(noSmtp, '/tmp/unused', log, { outbox: false });
  expect(mail.deliverable).toBe(false);
  let thrown: unknown;
  try {
    mail.assertDeliverable('Signing up');
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ApiError);
  expect(thrown).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect((thrown as ApiError).message).toContain('no mail server');
  expect((thrown as ApiError).hint).toContain('SMTP_URL');
  expect(await mail.send('a@example.com', { subject: 's', text: 't' }, 'verify')).toBe(false);
});

test('with SMTP and no outbox, mail is deliverable', () => {
  const mail = new AccountMail({ ...noSmtp, smtp: { url: 'smtp://127.0.0.1:1', from: 'Deals <d@example.com>' } }, '/tmp/unused', log, { outbox: false });
  expect(mail.deliverable).toBe(true);
  mail.close();
});
