/**
 * The words of every notice (docs/notifications.md): plain text made from the submission and
 * the site, nothing sent here. Submitted text is untrusted: it is kept to one line where a line
 * is expected, and escaped where a chat would read markup into it.
 */
import { absolute, paths } from '../../src/agents/site-urls.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import type { Site } from '../../src/schemas/site.ts';
import type { Submission } from '../../src/schemas/submission.ts';

/** A plain-text mail: its subject and body, and any extra headers (the alert digest's List-Unsubscribe). */
export interface Mail {
  subject: string;
  text: string;
  headers?: Record<string, string>;
}

/** What a notice says about a submission: its fields, its id, and what the review decided. */
export type Submitted = Submission & { id: string; rejectionReason?: string };

/** The site's own details a notice needs: its name, and its base URL for links. */
export type SiteRef = Pick<Site, 'name' | 'baseUrl'>;

/**
 * The admins' mail about a new submission: what was offered, and where to review it.
 * @example newSubmissionMail(submission, site).subject // 'New deal submission: Acme'
 */
export function newSubmissionMail(submission: Submitted, site: SiteRef): Mail {
  const company = line(submission.company_name);
  return {
    subject: `New deal submission: ${company}`,
    text: [
      `A deal from ${company} was submitted to ${site.name}.`,
      '',
      `Value: ${line(submission.deal_value) || '(none given)'}`,
      `Website: ${submission.website_url}`,
      `Category: ${submission.site_category ?? submission.category}`,
      `Offer: ${submission.benefit_description.trim()}`,
      `Submitted by: ${submission.submitter_email ?? 'no e-mail given'}`,
      '',
      `Review it: ${absolute(site.baseUrl, paths.adminReview)}`,
      `(submission ${submission.id})`,
    ].join('\n'),
  };
}

/**
 * The chat line about a new submission (a Slack-compatible webhook's `text`): no submitter
 * e-mail, since the chat is another company's service.
 */
export function newSubmissionChat(submission: Submitted, site: SiteRef): string {
  const value = line(submission.deal_value);
  const what = `${chat(line(submission.company_name))}${value ? `, ${chat(value)}` : ''}`;
  return `New deal submission on ${chat(site.name)}: ${what}. Review it: ${absolute(site.baseUrl, paths.adminReview)}`;
}

/** The submitter's mail once the deal is published, with the page's link. */
export function approvedMail(submission: Submitted, deal: Pick<Deal, 'slug'>, site: SiteRef): Mail {
  return reviewMail(site, `Your deal is published on ${site.name}`, [
    `Thank you for submitting ${line(submission.company_name)}. We reviewed it, and it is now published:`,
    absolute(site.baseUrl, paths.deal(deal)),
  ]);
}

/** The submitter's mail when the deal is not published, with the reviewer's reason. */
export function rejectedMail(submission: Submitted, site: SiteRef): Mail {
  const reason = submission.rejectionReason?.trim();
  return reviewMail(site, `Your deal submission to ${site.name}`, [
    `Thank you for submitting ${line(submission.company_name)}. We reviewed it, and decided not to publish it.`,
    ...(reason ? ['', `Reason: ${reason}`] : []),
  ]);
}

// --- internal ---

/** Both review mails end alike: the address's fate (it is deleted once this is sent), and who wrote. */
function reviewMail(site: SiteRef, subject: string, body: string[]): Mail {
  const text = ['Hello,', '', ...body, '', 'This is the only e-mail we send about it: your address is deleted from our records now.', '', site.name, absolute(site.baseUrl, paths.home)];
  return { subject: line(subject), text: text.join('\n') };
}

/** Submitted text as one line (a subject or a field), at most 120 characters. */
function line(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
}

/**
 * Slack's escaping for message text: `<`, `>` and `&` only, so submitted words cannot become
 * a link with its own label or an `<!channel>` mention.
 */
function chat(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
