/**
 * The notifier's own rules (functions/notify/notifier.ts), against a real SMTP server
 * (`smtp-server`) and real stores on disk: admins named by NOTIFY_ADMIN_EMAILS win over the
 * accounts, `none` mails nobody; a sent review notice whose address cannot be deleted is a warning
 * naming the submission, never the address; more than 100 notices under way are dropped, logged.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { NotifyConfig } from '../../functions/config.ts';
import type { Submitted } from '../../functions/notify/messages.ts';
import { Notifier } from '../../functions/notify/notifier.ts';
import { createLogger } from '../../functions/ops/log.ts';
import { FileSubmissionStore } from '../../functions/submissions/file-store.ts';
import { startSilentServer, startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';

let smtp: Receiver<ReceivedMail>;
let work: string;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  work = await mkdtemp(join(tmpdir(), 'deals-notifier-'));
});
afterAll(async () => {
  await smtp.close();
  await rm(work, { recursive: true, force: true });
});

const submission: Submitted = {
  id: 'sub-00000000000000aa',
  company_name: 'Acme',
  website_url: 'https://acme.example',
  benefit_description: 'Six months free for startups.',
  category: 'saas',
  deal_value: '6 months free',
  redemption_method: 'link',
  redemption_link: 'https://acme.example/startups',
  submitter_email: 'founder@acme.example',
};

function notifier(settings: Partial<NotifyConfig>, forgetEmail: (id: string) => Promise<boolean> = () => Promise.resolve(true)): { notifier: Notifier; lines: string[] } {
  const lines: string[] = [];
  const made = new Notifier({
    settings: { smtp: { url: smtp.url, from: 'deals@catalog.example' }, webhookUrl: undefined, adminEmails: undefined, timeoutMs: 5000, ...settings },
    log: createLogger((line) => lines.push(line)),
    site: () => ({ name: 'Startup Deals', baseUrl: 'https://deals.example' }),
    adminAccounts: () => Promise.resolve(['ada@example.com']),
    forgetEmail,
  });
  return { notifier: made, lines };
}

test('NOTIFY_ADMIN_EMAILS wins over the admin accounts; `none` (an empty list) mails nobody', async () => {
  smtp.received.length = 0;
  const listed = notifier({ adminEmails: ['ops@example.com', 'bo@example.com'] });
  listed.notifier.submitted(submission);
  await listed.notifier.close();
  const nobody = notifier({ adminEmails: [] });
  nobody.notifier.submitted(submission);
  await nobody.notifier.close();
  expect(smtp.received.map((m) => m.to)).toEqual([['ops@example.com', 'bo@example.com']]);
  expect(nobody.lines).toEqual([]);
});

test('a review notice sent but the address not deletable: a warning naming the submission, never the address', async () => {
  // A store whose folder is a file: every call fails as unavailable, as a full or broken disk would.
  const notAFolder = join(work, 'submissions');
  await writeFile(notAFolder, 'not a folder');
  const store = new FileSubmissionStore(notAFolder);
  const { notifier: made, lines } = notifier({}, (id) => store.forgetEmail(id, new Date()));
  smtp.received.length = 0;
  made.reviewed({ ...submission, rejectionReason: 'Not open to every startup.' });
  await made.close();
  expect(smtp.received.map((m) => m.to)).toEqual([[submission.submitter_email]]);
  const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(events.map((e) => e.event)).toEqual(['submission_email_kept', 'notification_sent']);
  expect(events[0]).toMatchObject({ level: 'warn', submission: submission.id });
  expect(events[1]).toMatchObject({ notice: 'rejected', emailRemoved: false });
  expect(lines.join('\n')).not.toContain(submission.submitter_email);
});

test('beyond 100 notices under way, new ones are dropped and logged rather than queued', async () => {
  const silent = await startSilentServer('smtp');
  try {
    const { notifier: made, lines } = notifier({ smtp: { url: silent.url, from: 'deals@catalog.example' }, adminEmails: ['ada@example.com'], timeoutMs: 1000 });
    for (let i = 0; i < 101; i++) made.submitted({ ...submission, id: `sub-${i.toString(16).padStart(16, '0')}` });
    await made.close();
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((e) => e.event === 'notification_dropped')).toEqual([expect.objectContaining({ level: 'warn', submission: 'sub-0000000000000064', inFlight: 100 })]);
    expect(events.filter((e) => e.event === 'notification_failed')).toHaveLength(100);
  } finally {
    await silent.close();
  }
});
