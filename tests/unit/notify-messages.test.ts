/**
 * The words of every notice (functions/notify/messages.ts), pinned (STYLE 11): a change to what
 * admins or submitters read is a visible diff here.
 */
import { describe, expect, test } from 'vitest';
import { approvedMail, newSubmissionChat, newSubmissionMail, rejectedMail, type Submitted } from '../../functions/notify/messages.ts';

const site = { name: 'Startup Deals', baseUrl: 'https://deals.example' };
const submission: Submitted = {
  id: 'sub-0123456789abcdef',
  company_name: 'Acme Vector DB',
  website_url: 'https://acme.example',
  benefit_description: 'Six months of the Pro plan free for startups under two years old.',
  category: 'saas',
  site_category: 'developer-tools',
  deal_value: '$5,000 in credits',
  redemption_method: 'link',
  redemption_link: 'https://acme.example/startups',
  submitter_email: 'founder@acme.example',
};

describe('notice texts', () => {
  test('admins: a new submission, by mail and in the chat', () => {
    expect(newSubmissionMail(submission, site)).toMatchInlineSnapshot(`
      {
        "subject": "New deal submission: Acme Vector DB",
        "text": "A deal from Acme Vector DB was submitted to Startup Deals.

      Value: $5,000 in credits
      Website: https://acme.example
      Category: developer-tools
      Offer: Six months of the Pro plan free for startups under two years old.
      Submitted by: founder@acme.example

      Review it: https://deals.example/admin/submissions/
      (submission sub-0123456789abcdef)",
      }
    `);
    expect(newSubmissionChat(submission, site)).toMatchInlineSnapshot(`"New deal submission on Startup Deals: Acme Vector DB, $5,000 in credits. Review it: https://deals.example/admin/submissions/"`);
  });

  test('the submitter: approved, with the page; rejected, with the reason', () => {
    expect(approvedMail(submission, { slug: 'acme-vector-db-5000-in-credits' }, site)).toMatchInlineSnapshot(`
      {
        "subject": "Your deal is published on Startup Deals",
        "text": "Hello,

      Thank you for submitting Acme Vector DB. We reviewed it, and it is now published:
      https://deals.example/deals/acme-vector-db-5000-in-credits/

      This is the only e-mail we send about it: your address is deleted from our records now.

      Startup Deals
      https://deals.example/",
      }
    `);
    expect(rejectedMail({ ...submission, rejectionReason: 'The offer needs an invitation; we list open offers only.' }, site)).toMatchInlineSnapshot(`
      {
        "subject": "Your deal submission to Startup Deals",
        "text": "Hello,

      Thank you for submitting Acme Vector DB. We reviewed it, and decided not to publish it.

      Reason: The offer needs an invitation; we list open offers only.

      This is the only e-mail we send about it: your address is deleted from our records now.

      Startup Deals
      https://deals.example/",
      }
    `);
  });

  test('submitted text is one line in a subject, at most 120 characters, and escaped for the chat', () => {
    const long = { ...submission, company_name: `Acme\r\nBcc: victim@example.com ${'x'.repeat(200)}`, deal_value: '<!channel> & more' };
    const { subject } = newSubmissionMail(long, site);
    expect(subject).not.toMatch(/[\r\n]/);
    expect(subject.length).toBeLessThanOrEqual('New deal submission: '.length + 120);
    expect(newSubmissionChat(long, site)).toContain('&lt;!channel&gt; &amp; more');
  });
});
