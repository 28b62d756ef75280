/**
 * Who hears about submissions (docs/notifications.md): admins of each new one, by mail and/or a
 * chat webhook; the submitter of the review, by mail, when they left an address, which is then
 * deleted. Handlers call this once their write is durable and answer at once: every notice is
 * sent in the background, bounded by the timeout, and a failure is a log line, never an answer.
 */
import type { Deal } from '../../src/schemas/deal.ts';
import type { NotifyConfig } from '../config.ts';
import type { Logger } from '../ops/log.ts';
import { smtpMailer, type Mailer } from './mailer.ts';
import { approvedMail, newSubmissionChat, newSubmissionMail, rejectedMail, type Mail, type SiteRef, type Submitted } from './messages.ts';
import { postToWebhook } from './webhook.ts';

/** Notices under way at most; beyond, new ones are dropped (logged) rather than queued without end. */
const MAX_IN_FLIGHT = 100;

export interface NotifierOptions {
  settings: NotifyConfig;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The site being served now: its name, and its base URL for links. */
  site: () => SiteRef;
  /** The admin accounts' e-mails, used when NOTIFY_ADMIN_EMAILS is unset. */
  adminAccounts: () => Promise<string[]>;
  /** Delete a submitter's e-mail from the stored submission. */
  forgetEmail: (id: string) => Promise<boolean>;
}

type Notice = 'submitted' | 'approved' | 'rejected';
/** What a background send resolves with: fields for its `notification_sent` line, or undefined when there was no one to tell. */
type Sent = Record<string, unknown> | undefined;

export class Notifier {
  private readonly options: NotifierOptions;
  private readonly mailer: Mailer | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(options: NotifierOptions) {
    this.options = options;
    this.mailer = options.settings.smtp ? smtpMailer(options.settings.smtp, options.settings.timeoutMs) : undefined;
  }

  /** A new submission was stored (not a duplicate): tell the admins. */
  submitted(submission: Submitted): void {
    const site = this.options.site();
    const { webhookUrl, timeoutMs } = this.options.settings;
    const mailer = this.mailer;
    if (mailer) {
      this.later('mail', 'submitted', submission.id, async () => {
        const to = this.options.settings.adminEmails ?? (await this.options.adminAccounts());
        if (to.length === 0) return undefined;
        return this.mail(mailer, to, newSubmissionMail(submission, site));
      });
    }
    if (webhookUrl) {
      this.later('webhook', 'submitted', submission.id, async () => {
        await postToWebhook(webhookUrl, newSubmissionChat(submission, site), timeoutMs);
        return {};
      });
    }
  }

  /**
   * A submission was reviewed: mail the submitter, when there is an address, then delete it
   * (this was its last use). `deal`: the published deal, for an approval.
   */
  reviewed(submission: Submitted, deal?: Pick<Deal, 'slug'>): void {
    const mailer = this.mailer;
    const to = submission.submitter_email;
    if (!mailer || !to) return;
    const site = this.options.site();
    const notice: Notice = deal ? 'approved' : 'rejected';
    this.later('mail', notice, submission.id, async () => {
      const sent = await this.mail(mailer, [to], deal ? approvedMail(submission, deal, site) : rejectedMail(submission, site));
      // Only once sent: should sending (or this) fail, the address stays until the retention sweep (docs/submissions.md).
      const emailRemoved = await this.options.forgetEmail(submission.id).catch((error: unknown) => {
        this.options.log.warn('submission_email_kept', { submission: submission.id, error: describe(error) });
        return false;
      });
      return { ...sent, emailRemoved };
    });
  }

  /** Resolves when every notice under way has been sent or has failed (each is bounded by the timeout). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  /** Let the notices under way finish, then close the mail connection. */
  async close(): Promise<void> {
    await this.settled();
    this.mailer?.close();
  }

  // --- internal ---

  /** Send one mail; recipients the server refused while it took others are counted, never named (they are addresses). */
  private async mail(mailer: Mailer, to: readonly string[], mail: Mail): Promise<Sent> {
    const { refused } = await mailer.send(to, mail);
    return refused.length > 0 ? { recipients: to.length, refused: refused.length } : { recipients: to.length };
  }

  /** Run `send` in the background, and log how it went. */
  private later(channel: 'mail' | 'webhook', notice: Notice, submission: string, send: () => Promise<Sent>): void {
    const { log } = this.options;
    if (this.inFlight.size >= MAX_IN_FLIGHT) {
      log.warn('notification_dropped', { channel, notice, submission, inFlight: this.inFlight.size });
      return;
    }
    const task = send().then(
      (sent) => {
        if (sent) log.info('notification_sent', { channel, notice, submission, ...sent });
      },
      (error: unknown) => log.error('notification_failed', { channel, notice, submission, error: describe(error), code: codeOf(error) }),
    );
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }
}

// --- internal ---

/** An error as one line without secrets: its message and its cause's (fetch puts the reason there). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}${cause}`;
}

/** Nodemailer's error code (`ESOCKET`, `ETIMEDOUT`, `EENVELOPE`…); DOMException's numeric codes say nothing more than the name. */
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
