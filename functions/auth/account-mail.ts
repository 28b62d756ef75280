/**
 * The e-mails of people's own accounts (issue 18): the link that confirms a new member's
 * address, the link that resets a password, and the notice that an address already has an
 * account (so sign-up never reveals which addresses do). Links carry a signed token (the session
 * secret, separated by purpose) naming the account and its session generation: a reset changes
 * the generation, so each reset link works once, and a later one voids the earlier ones.
 * The confirmation and sign-in links open a page whose button does it (a POST): a mail scanner
 * that fetches every link confirms nothing and signs nobody in. A sign-in link also carries a
 * nonce, spent when it is used (account-store.ts `useSignInLink`), and the page to come back to.
 * Mail goes through SMTP_URL; without it (a fresh clone) each message is written to
 * `DATA_DIR/outbox/` for the operator to open, and the log says where.
 */
import { absolute } from '../../src/agents/site-urls.ts';
import type { NotifyConfig } from '../config.ts';
import type { Logger } from '../ops/log.ts';
import { smtpMailer, type Mailer } from '../notify/mailer.ts';
import type { Mail, SiteRef } from '../notify/messages.ts';
import { ApiError } from '../http/errors.ts';
import { outboxDir, writeOutboxMail } from './outbox.ts';
import { seal, unseal } from './session.ts';
import type { Account } from './users.ts';

export type TokenPurpose = 'verify' | 'reset' | 'signin' | 'unsubscribe';

/** How long a link works, in seconds (an alert's unsubscribe link: a year, since old mails are kept). */
export const TOKEN_TTL: Record<TokenPurpose, number> = { verify: 48 * 3600, reset: 3600, signin: 15 * 60, unsubscribe: 365 * 24 * 3600 };

/** The pages the links open. */
export const ACCOUNT_PAGES = {
  signup: '/signup',
  confirm: '/confirm-email',
  reset: '/reset-password',
  forgot: '/forgot-password',
  login: '/login',
  signInLink: '/sign-in-link',
  unsubscribe: '/account/unsubscribe',
} as const;

/** What a token names: the account and its generation; a sign-in link adds its nonce and the page to come back to. */
export interface AccountTokenData {
  /** Expiry, Unix seconds. */
  exp: number;
  email: string;
  gen: string;
  /** A sign-in link's one-use id. */
  nonce?: string;
  /** A sign-in link's page to go to once signed in (a path of this site, checked again when used). */
  next?: string;
}

/**
 * A signed token for `purpose`, good for `TOKEN_TTL[purpose]` from `nowMs`.
 * @example accountToken('reset', account, secret, Date.now())
 */
export function accountToken(purpose: TokenPurpose, account: Pick<Account, 'email' | 'generation'>, secret: string, nowMs: number, extra: { nonce?: string; next?: string | undefined } = {}): string {
  const data: AccountTokenData = {
    exp: Math.floor(nowMs / 1000) + TOKEN_TTL[purpose],
    email: account.email,
    gen: account.generation ?? '',
    ...(extra.nonce ? { nonce: extra.nonce } : {}),
    ...(extra.next ? { next: extra.next } : {}),
  };
  return seal(data, purposeSecret(secret, purpose));
}

/** The account a token names, if it was signed for `purpose` and has not expired (the caller compares `gen`). */
export function readAccountToken(token: string, purpose: TokenPurpose, secret: string, nowMs: number): AccountTokenData | undefined {
  const data = unseal<AccountTokenData>(token, purposeSecret(secret, purpose), Math.floor(nowMs / 1000));
  if (!data || typeof data.email !== 'string' || typeof data.gen !== 'string') return undefined;
  return {
    exp: data.exp,
    email: data.email,
    gen: data.gen,
    ...(typeof data.nonce === 'string' ? { nonce: data.nonce } : {}),
    ...(typeof data.next === 'string' ? { next: data.next } : {}),
  };
}

export function verifyMail(link: string, site: SiteRef): Mail {
  return {
    subject: `Confirm your e-mail address for ${site.name}`,
    text: [
      `Someone (we hope you) signed up to ${site.name} with this address.`,
      '',
      `Confirm it within 48 hours: ${link}`,
      '',
      'If it was not you, ignore this message: nothing happens without the link.',
    ].join('\n'),
  };
}

export function resetMail(link: string, site: SiteRef): Mail {
  return {
    subject: `Reset your password for ${site.name}`,
    text: [
      `A new password was asked for the account with this address on ${site.name}.`,
      '',
      `Choose one within an hour: ${link}`,
      '',
      'If it was not you, ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}

export function alreadyRegisteredMail(site: SiteRef): Mail {
  return {
    subject: `You already have an account on ${site.name}`,
    text: [
      `Someone (we hope you) tried to sign up to ${site.name} with this address, which already has an account.`,
      '',
      `Sign in: ${absolute(site.baseUrl, ACCOUNT_PAGES.login)}`,
      `Forgot the password? ${absolute(site.baseUrl, ACCOUNT_PAGES.forgot)}`,
    ].join('\n'),
  };
}

export function signInLinkMail(link: string, site: SiteRef): Mail {
  return {
    subject: `Your sign-in link for ${site.name}`,
    text: [
      `Someone (we hope you) asked for a link to sign in to ${site.name} with this address.`,
      '',
      `Sign in within 15 minutes: ${link}`,
      '',
      'The link works once. If it was not you, ignore this message: nobody signs in without it.',
    ].join('\n'),
  };
}

/** For a sign-in link asked for an address without an account: says so (the answer on the site did not) and links to sign-up. */
export function noAccountMail(site: SiteRef): Mail {
  return {
    subject: `No account on ${site.name} uses this address`,
    text: [
      `Someone (we hope you) asked for a link to sign in to ${site.name} with this address, but no account uses it.`,
      '',
      `Create one: ${absolute(site.baseUrl, ACCOUNT_PAGES.signup)}`,
      '',
      'If it was not you, ignore this message: nothing was made.',
    ].join('\n'),
  };
}

/**
 * Sends account mail through SMTP, or into the outbox folder when no SMTP server is set. A
 * serverless function has no outbox (`outbox: false`: its folder is a read-only bundle that
 * nobody opens), so there the mail that finishes a sign-up needs SMTP_URL.
 */
export class AccountMail {
  private readonly mailer: Mailer | undefined;
  private readonly outbox: string | undefined;
  private readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(settings: NotifyConfig, dataDir: string, log: Pick<Logger, 'info' | 'warn' | 'error'>, options: { outbox: boolean } = { outbox: true }) {
    this.mailer = settings.smtp ? smtpMailer(settings.smtp, settings.timeoutMs) : undefined;
    this.outbox = options.outbox ? outboxDir(dataDir) : undefined;
    this.log = log;
  }

  /** Whether mail goes anywhere: an SMTP server, or the outbox folder. */
  get deliverable(): boolean {
    return this.mailer !== undefined || this.outbox !== undefined;
  }

  /** 503 naming `what` where mail goes nowhere (no SMTP server and no outbox), before anything is changed or looked up. */
  assertDeliverable(what: string): void {
    if (this.deliverable) return;
    throw new ApiError(503, 'service_unavailable', `${what} needs an e-mail, and this deployment has no mail server; nothing was changed.`, {
      hint: 'Set SMTP_URL and SMTP_FROM (docs/members.md); a serverless function has no outbox folder to keep mail in.',
      headers: { 'Retry-After': '3600' },
    });
  }

  /**
   * Send one message in the background: the answer to the person must not wait for it (its
   * time would tell whether the address has an account) nor depend on it. A failure is logged.
   */
  later(to: string, mail: Mail, kind: string): void {
    const sending: Promise<void> = this.send(to, mail, kind)
      .then(() => undefined)
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  /** Resolves once every message under way is sent or has failed (a serverless function's `waitUntil`). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /** Send one message now; a failure is logged, never thrown. @returns whether it was sent (or written to the outbox) */
  async send(to: string, mail: Mail, kind: string): Promise<boolean> {
    try {
      if (this.mailer) {
        await this.mailer.send([to], mail);
        this.log.info('account_mail_sent', { kind });
        return true;
      }
      if (!this.outbox) throw new Error('no SMTP server and no outbox: set SMTP_URL');
      const file = await writeOutboxMail(this.outbox, to, mail, kind);
      this.log.warn('account_mail_in_outbox', { kind, file, hint: 'set SMTP_URL and SMTP_FROM to send it (docs/members.md)' });
      return true;
    } catch (error) {
      this.log.error('account_mail_failed', { kind, error: String(error) });
      return false;
    }
  }

  close(): void {
    this.mailer?.close();
  }
}

// --- internal ---

/** A key per purpose: a reset token is no confirmation token, and neither is a session. */
function purposeSecret(secret: string, purpose: TokenPurpose): string {
  return `${secret}\u0000account-${purpose}`;
}
