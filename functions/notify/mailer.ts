/**
 * Mail through the SMTP server of SMTP_URL, with Nodemailer. One connection per message (a
 * notice now and then needs no pool); every step and the whole send are bounded by the timeout.
 */
import type { Transporter } from 'nodemailer';
import type { NotifyConfig } from '../config.ts';
import type { Mail } from './messages.ts';

export interface Mailer {
  /**
   * Send one plain-text mail; resolves once the server accepted it for at least one recipient,
   * with the recipients it refused.
   */
  send(to: readonly string[], mail: Mail): Promise<{ refused: string[] }>;
  close(): void;
}

/**
 * @example const mailer = smtpMailer({ url: 'smtp://mail.example:587', from: 'Deals <deals@example.com>' }, 10_000)
 */
export function smtpMailer(smtp: NonNullable<NotifyConfig['smtp']>, timeoutMs: number): Mailer {
  // Nodemailer is loaded on the first mail only: a site without SMTP_URL never pays for it.
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({ url: smtp.url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs, dnsTimeout: timeoutMs }, { from: smtp.from }),
    ));
  return {
    async send(to, mail) {
      // The step timeouts end a silent server; the signal ends one that answers too slowly.
      // Addresses as address objects: Nodemailer then never reads a display name or a second address out of one.
      const info = (await (
        await open()
      ).sendMail({
        to: to.map((address) => ({ name: '', address })),
        subject: mail.subject,
        text: mail.text,
        ...(mail.headers ? { headers: mail.headers } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      })) as {
        rejected?: unknown[];
      };
      return { refused: (info.rejected ?? []).map(String) };
    },
    close() {
      void transport?.then((t) => t.close());
    },
  };
}
