/**
 * The site's privacy notice (`/privacy/` and its Markdown twin, one text for both): what the
 * server stores about people and for how long, as the code does it. The member's own data is
 * worded once, in src/schemas/member-data.ts (`MEMBER_DATA`), and listed here from there.
 * Each figure below is a default of the server's code; tests/unit/privacy-notice.test.ts holds
 * them to it, so a change there cannot leave this text behind.
 */
import { MEMBER_DATA } from '../schemas/member-data.ts';
import { paths } from '../agents/site-urls.ts';

/** The figures the notice states, each the code's default (see the test named above). */
export const PRIVACY_FACTS = {
  /** functions/config.ts SESSION_TTL_SECONDS. */
  sessionHours: 8,
  /** functions/auth/account-store.ts UNCONFIRMED_TTL_MS. */
  unconfirmedHours: 48,
  /** functions/auth/login-throttle.ts LOGIN_WINDOW_MS. */
  signInWindowMinutes: 15,
  /** functions/auth/oidc.ts FLOW_SECONDS: the provider sign-in's cookie. */
  providerFlowMinutes: 10,
  /** functions/config.ts SUBMISSION_EMAIL_RETENTION_DAYS. */
  submissionEmailDays: 30,
  /** functions/search-gaps/store.ts RETAIN_DAYS. */
  searchGapDays: 30,
} as const;

export interface NoticeSection {
  id: string;
  heading: string;
  /** Markdown (paragraphs, lists, bold, code, links to site paths). */
  markdown: string;
}

/**
 * The notice for a site, section by section.
 * @example privacyNotice({ name: 'Deals', contact: { email: 'editors@example.com' } })[0].heading // 'In short'
 */
export function privacyNotice(site: { name: string; contact: { email?: string | undefined } }): NoticeSection[] {
  const f = PRIVACY_FACTS;
  const member = Object.values(MEMBER_DATA).map((s) => `- **${s.title}.** ${s.holds} ${s.kept}`);
  return [
    {
      id: 'short',
      heading: 'In short',
      markdown: [
        `Reading ${site.name} needs no account, and a visitor who does not sign in gets no cookie. A member account holds an e-mail address, a password hash and the deals and startups saved with it.`,
        `Signed in, you can download everything stored about you, or delete your account with all of it, on [your data](/account/privacy/).`,
      ].join('\n\n'),
    },
    {
      id: 'account',
      heading: "Members' accounts",
      markdown: [
        'What the site stores about a member, in its database:',
        member.join('\n'),
        `Deleting the account (on [your data](/account/privacy/)) removes all of it at once; the site's operator can also remove an account. The site's only admin account cannot be deleted that way, so the site always keeps an editor.`,
      ].join('\n\n'),
    },
    {
      id: 'sessions',
      heading: 'Sessions and cookies',
      markdown: [
        `Signing in sets two cookies. The session cookie (HTTP-only, so scripts cannot read it) is signed by the server and holds your e-mail address, your role, when it expires, a random id and a value that changes when your password changes or you sign out everywhere. The second, \`deals_signed_in\`, holds only \`1\`: it tells the pages to ask which items you saved. Both last **${f.sessionHours} hours** (unless the site's operator set another lifetime) or until you sign out.`,
        `The server keeps no list of sessions. Signing out records the session's random id until the session would have expired anyway, so a copy of the cookie stops working too. Signing in through the identity provider, where there is one, sets a cookie for that sign-in alone, for at most ${f.providerFlowMinutes} minutes.`,
      ].join('\n\n'),
    },
    {
      id: 'limits',
      heading: 'Limits against abuse',
      markdown: [
        `To stop floods and password guessing, the server counts requests for a short while, in memory (or in Redis, where several servers share it):`,
        [
          '- requests to the API per client address (an IPv6 address counts by its /64), for a minute;',
          `- failed sign-ins (and wrong passwords when deleting an account) per client address, per e-mail address and per the two together, for ${f.signInWindowMinutes} minutes;`,
          '- requests that send mail (sign-up, password reset) per client address, and mails per recipient address, for an hour;',
          '- accepted deal submissions per client address, for an hour.',
        ].join('\n'),
        'Older counts are dropped: they expire in Redis, and in memory they go at the next clean-up or restart.',
      ].join('\n\n'),
    },
    {
      id: 'mail',
      heading: 'Mail',
      markdown: `The site mails a member only the link that confirms the address, the link to choose a new password, and a note when someone signs up with an address that has an account. Where no mail server is set up (a development copy of the site), each message is written to a file on the server instead (\`DATA_DIR/outbox\`), kept until the operator deletes it or you delete your account.`,
    },
    {
      id: 'submissions',
      heading: 'Deal submissions',
      markdown: `Anyone may [submit a deal](${paths.submit}). An e-mail address given with it is kept with the submission, used only about it and never published; it is deleted ${f.submissionEmailDays} days after the submission is reviewed, or as soon as the mail that tells you of the review is sent, where the site sends mail.`,
    },
    {
      id: 'searches',
      heading: 'Searches',
      markdown: `Searches that find nothing or little are counted per day so editors can see what people miss: the search text only, scrubbed of e-mail addresses and long numbers, with no address, account or time finer than the day. Days older than ${f.searchGapDays} are dropped.`,
    },
    {
      id: 'logs',
      heading: 'Server logs',
      markdown: [
        'The application logs one line per request: its time, method and path (without the query), the answer status, how long it took and a request id; no client address and no account. Signing in through the identity provider logs the e-mail address of the account signed in (of an address without an account, only a hash).',
        'With the web server set up as the project ships it (`deploy/nginx.conf`), nginx logs each request with the client address, its time, method and path (without the query), status, size, the request id and which server answered.',
        "How long logs and backups are kept is up to the site's operator; deleting an account does not rewrite them.",
      ].join('\n\n'),
    },
    {
      id: 'contact',
      heading: 'Questions',
      markdown: site.contact.email
        ? `Write to the editors at ${site.contact.email}. Signed in, [your data](/account/privacy/) lets you download or delete everything yourself.`
        : 'Signed in, [your data](/account/privacy/) lets you download or delete everything stored about you yourself.',
    },
  ];
}

/** The notice as one Markdown document (the page's twin); site paths are made absolute by the caller's policy. */
export function privacyNoticeMarkdown(site: Parameters<typeof privacyNotice>[0], renderSection: (markdown: string) => string = (m) => m): string {
  const body = privacyNotice(site).flatMap((s) => [`## ${s.heading}`, '', renderSection(s.markdown).trimEnd(), '']);
  return `${['# Privacy', '', ...body].join('\n').trimEnd()}\n`;
}
