/**
 * Notices (docs/notifications.md), end to end through the real HTTP API against real receivers:
 * an SMTP server (`smtp-server`) and an HTTP webhook on 127.0.0.1. A new submission mails the
 * admin accounts and posts to the webhook; an approval or rejection mails the submitter, whose
 * address is then gone from the stored submission; with nothing configured nothing is sent and
 * the address waits for the retention sweep; a mail server or webhook that is down or silent
 * changes no answer and is one log line each.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { FileSubmissionStore } from '../../functions/submissions/file-store.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { freePort } from '../helpers/free-port.ts';
import { startSilentServer, startSmtpReceiver, startWebhookReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { ADMIN, call, callFrom, login, MEMBER, startWriteServer, takeErrors, uniqueWord, type WriteServer } from '../helpers/writes-harness.ts';

const FROM = 'deals@catalog.example';

/** One server for a describe block, started with the settings `env` gives once `before` has run. */
function useNotifyServer(before: () => Promise<Record<string, string>>): { env: WriteServer; cookie: string } {
  const held = {} as { env: WriteServer; cookie: string };
  beforeAll(async () => {
    held.env = await startWriteServer([ADMIN, MEMBER], await before());
    held.cookie = await login(held.env.url, ADMIN);
  });
  afterAll(async () => {
    await held.env?.stop();
  });
  return held;
}

let nextAddress = 1;
/** Submit through POST /api/v1/submit-deal from a fresh loopback address (the hourly budget is per address). */
async function submit(env: WriteServer, patch: Record<string, unknown> = {}): Promise<{ id: string; body: Record<string, string>; ms: number }> {
  const word = uniqueWord();
  const body = {
    company_name: `Notify ${word}`,
    website_url: `https://${word}.example`,
    benefit_description: `Six months of ${word} free for startups.`,
    category: 'saas',
    deal_value: '6 months free',
    redemption_link: `https://${word}.example/startups`,
    submitter_email: `${word}@founders.example`,
    ...patch,
  };
  const started = performance.now();
  const result = await callFrom(`127.0.10.${nextAddress++}`, env.url, 'POST', '/api/v1/submit-deal', { body, origin: null });
  const ms = performance.now() - started;
  expect(result.status, result.text).toBe(201);
  return { id: (result.body as { id: string }).id, body: body as Record<string, string>, ms };
}

const review = (held: { env: WriteServer; cookie: string }, action: 'approve' | 'reject', body: Record<string, unknown>) =>
  call(held.env.url, 'POST', `/api/v1/admin/submissions/${action}`, { cookie: held.cookie, body });

/** The submission as the private store holds it on disk (a fresh store reads the files). */
async function stored(env: WriteServer, id: string): Promise<Record<string, unknown>> {
  return (await new FileSubmissionStore(`${env.dataDir}/submissions`).get(id)) as unknown as Record<string, unknown>;
}

/** The server's log events named `event`, parsed. */
const logged = (env: WriteServer, event: string): Array<Record<string, unknown>> => env.server.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === event);

const baseUrlOf = (env: WriteServer): string => env.server.deps.state().catalog.site.baseUrl.replace(/\/$/, '');

describe('SMTP and a webhook configured; admins are the admin accounts', () => {
  let smtp: Receiver<ReceivedMail>;
  let hook: Receiver<unknown>;
  const held = useNotifyServer(async () => {
    smtp = await startSmtpReceiver();
    hook = await startWebhookReceiver();
    return { SMTP_URL: smtp.url, SMTP_FROM: `Deals catalog <${FROM}>`, NOTIFY_WEBHOOK_URL: hook.url };
  });
  afterAll(async () => {
    await smtp?.close();
    await hook?.close();
  });
  afterEach(async () => {
    await held.env.server.deps.notify.settled();
    smtp.received.length = 0;
    hook.received.length = 0;
    expect(takeErrors(held.env.server)).toEqual([]);
  });

  test('a new submission: one mail to the admin accounts (not members) with a link to the review queue, one webhook post without the submitter address', async () => {
    const { id, body } = await submit(held.env);
    await held.env.server.deps.notify.settled();
    const site = held.env.server.deps.state().catalog.site;
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received as [ReceivedMail];
    expect(mail.from).toBe(FROM);
    expect(mail.to).toEqual([ADMIN.email]);
    expect(mail.headers.get('subject')).toBe(`New deal submission: ${body.company_name}`);
    expect(mail.headers.get('content-type')).toMatch(/^text\/plain/);
    for (const part of [body.company_name, body.deal_value, body.website_url, body.benefit_description, body.submitter_email, id, `${baseUrlOf(held.env)}/admin/submissions/`]) {
      expect(mail.text).toContain(part);
    }
    expect(hook.received).toEqual([{ text: `New deal submission on ${site.name}: ${body.company_name}, ${body.deal_value}. Review it: ${baseUrlOf(held.env)}/admin/submissions/` }]);
    const sent = logged(held.env, 'notification_sent').filter((line) => line.submission === id);
    expect(sent).toHaveLength(2);
    expect(sent).toEqual(
      expect.arrayContaining([expect.objectContaining({ channel: 'mail', notice: 'submitted', recipients: 1 }), expect.objectContaining({ channel: 'webhook', notice: 'submitted' })]),
    );
    expect(JSON.stringify(held.env.server.lines)).not.toContain(body.submitter_email);
  });

  test('a duplicate of a submission (same company and link the same day) is not announced again', async () => {
    const { id, body } = await submit(held.env);
    await held.env.server.deps.notify.settled();
    expect(smtp.received).toHaveLength(1);
    const again = await callFrom(`127.0.10.${nextAddress++}`, held.env.url, 'POST', '/api/v1/submit-deal', { body, origin: null });
    expect(again.body).toMatchObject({ id, duplicate: true });
    await held.env.server.deps.notify.settled();
    expect(smtp.received).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
  });

  test('submitted words cannot become chat markup: <, > and & are escaped in the webhook text', async () => {
    await submit(held.env, { company_name: 'Evil <!channel> & <https://phish.example|Click>', deal_value: '<@U123>' });
    await held.env.server.deps.notify.settled();
    const { text } = hook.received[0] as { text: string };
    expect(text).toContain('Evil &lt;!channel&gt; &amp; &lt;https://phish.example|Click&gt;, &lt;@U123&gt;.');
    expect(text).not.toMatch(/<[!@h]/);
  });

  test('approve: the submitter is mailed the published page, then the address is gone from the stored submission', async () => {
    const { id, body } = await submit(held.env);
    await held.env.server.deps.notify.settled();
    smtp.received.length = 0;
    const result = await review(held, 'approve', { id, status: 'active' });
    expect(result.status, result.text).toBe(200);
    const deal = (result.body as { deal: Deal }).deal;
    await held.env.server.deps.notify.settled();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received as [ReceivedMail];
    expect(mail.to).toEqual([body.submitter_email]);
    expect(mail.headers.get('subject')).toBe(`Your deal is published on ${held.env.server.deps.state().catalog.site.name}`);
    expect(mail.text).toContain(`${baseUrlOf(held.env)}/deals/${deal.slug}/`);
    expect(mail.text).toContain(body.company_name);
    // The page the mail links to is there.
    expect((await fetch(`${held.env.url}/api/v1/deals?slug=${deal.slug}`)).status).toBe(200);

    const record = await stored(held.env, id);
    expect(record).toMatchObject({ status: 'approved', emailRemovedAt: expect.any(String) });
    expect(record.submitter_email).toBeUndefined();
    expect(JSON.stringify(record)).not.toContain(body.submitter_email);
    const listed = await call(held.env.url, 'GET', '/api/v1/admin/submissions?status=approved', { cookie: held.cookie });
    expect(listed.text).not.toContain(body.submitter_email);
    expect(logged(held.env, 'notification_sent').find((line) => line.submission === id && line.notice === 'approved')).toMatchObject({ channel: 'mail', emailRemoved: true });
  });

  test('reject with a reason: the submitter is mailed the reason, then the address is gone; admins hear nothing more', async () => {
    const { id, body } = await submit(held.env);
    await held.env.server.deps.notify.settled();
    smtp.received.length = 0;
    hook.received.length = 0;
    const reason = 'We only list offers that are open to every startup, and this one needs an invitation.';
    const result = await review(held, 'reject', { id, reason });
    expect(result.status, result.text).toBe(200);
    await held.env.server.deps.notify.settled();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received as [ReceivedMail];
    expect(mail.to).toEqual([body.submitter_email]);
    expect(mail.text).toContain(`Reason: ${reason}`);
    expect(mail.text).toContain('decided not to publish it');
    expect(hook.received).toEqual([]);
    const record = await stored(held.env, id);
    expect(record).toMatchObject({ status: 'rejected', rejectionReason: reason });
    expect(record.submitter_email).toBeUndefined();
  });

  test('a submission without an e-mail: the admins hear of it, nobody is mailed on approval', async () => {
    const { id } = await submit(held.env, { submitter_email: undefined });
    await held.env.server.deps.notify.settled();
    expect(smtp.received.map((m) => m.to)).toEqual([[ADMIN.email]]);
    expect(smtp.received[0]?.text).toContain('Submitted by: no e-mail given');
    const result = await review(held, 'approve', { id, status: 'active' });
    expect(result.status, result.text).toBe(200);
    await held.env.server.deps.notify.settled();
    expect(smtp.received).toHaveLength(1);
  });
});

describe('nothing configured', () => {
  const held = useNotifyServer(() => Promise.resolve({}));
  afterEach(() => {
    expect(takeErrors(held.env.server)).toEqual([]);
  });

  test('nothing is sent, and an approved submitter keeps the address until the retention sweep', async () => {
    expect(held.env.server.deps.config.notify).toMatchObject({ smtp: undefined, webhookUrl: undefined });
    const { id, body } = await submit(held.env);
    const result = await review(held, 'approve', { id, status: 'active' });
    expect(result.status, result.text).toBe(200);
    await held.env.server.deps.notify.settled();
    expect(held.env.server.lines.filter((line) => line.includes('"event":"notification'))).toEqual([]);
    expect((await stored(held.env, id)).submitter_email).toBe(body.submitter_email);
  });
});

describe('the mail server is down and the webhook never answers', () => {
  let silentHook: Receiver<unknown>;
  const held = useNotifyServer(async () => {
    silentHook = await startSilentServer('http');
    // A port nobody listens on: connections are refused.
    return { SMTP_URL: `smtp://deals:smtp-password@127.0.0.1:${await freePort()}`, SMTP_FROM: FROM, NOTIFY_WEBHOOK_URL: `${silentHook.url}/T000/secret-token`, NOTIFY_TIMEOUT_SECONDS: '1' };
  });
  afterAll(async () => {
    await silentHook?.close();
  });

  test('the submission is still 201 at once, and each failure is one error line naming the channel and the submission, no secret', async () => {
    const { id, ms } = await submit(held.env);
    // Answered before the webhook's 1 s timeout could have run out: nothing waited for it.
    expect(logged(held.env, 'notification_failed').filter((line) => line.channel === 'webhook')).toEqual([]);
    expect(ms).toBeLessThan(1000);
    await held.env.server.deps.notify.settled();
    const failed = logged(held.env, 'notification_failed').filter((line) => line.submission === id);
    expect(failed).toHaveLength(2);
    expect(failed.find((line) => line.channel === 'mail')).toMatchObject({ level: 'error', notice: 'submitted', error: expect.stringMatching(/ECONNREFUSED|connect/i) });
    expect(failed.find((line) => line.channel === 'webhook')).toMatchObject({ level: 'error', notice: 'submitted', error: expect.stringMatching(/timeout|aborted/i) });
    for (const secret of ['secret-token', 'smtp-password']) expect(held.env.server.lines.join('\n')).not.toContain(secret);
    expect(takeErrors(held.env.server)).toHaveLength(2);
  });

  test('a review whose mail fails is still 200, and the address stays for the retention sweep', async () => {
    const { id, body } = await submit(held.env);
    await held.env.server.deps.notify.settled();
    takeErrors(held.env.server);
    const result = await review(held, 'reject', { id, reason: 'Not a startup offer.' });
    expect(result.status, result.text).toBe(200);
    await held.env.server.deps.notify.settled();
    expect(logged(held.env, 'notification_failed').filter((line) => line.submission === id && line.notice === 'rejected')).toHaveLength(1);
    expect((await stored(held.env, id)).submitter_email).toBe(body.submitter_email);
    expect(takeErrors(held.env.server)).toHaveLength(1);
  });
});
