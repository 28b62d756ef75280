/**
 * Shapes of the API's answers: the envelopes around deals and startups, write results, a
 * record's history and a revert, the change feed, the session, health, the review queue, the
 * search-gap report and the SPEC error object. The
 * OpenAPI document publishes them as components under the names in `ANSWER_SCHEMAS`
 * (functions/docs/openapi.ts), so a handler's answer, its type and its documentation have one
 * source. Envelopes are open (`looseObject`): within a major version fields may be added.
 */
import * as z from 'zod';
import { DealSchema } from './deal.ts';
import { CHANGE_KINDS, CHANGES_REACH, PAGE_COMMITS } from './query.ts';
import { StartupSchema } from './startup.ts';
import { SavedChangeSchema, SavedItemsSchema } from './saved.ts';
import { AlertRoundSchema, DashboardSchema, ProfileAnswerSchema, SeenAnswerSchema } from './dashboard.ts';
import { MemberExportSchema } from './member-data.ts';
import { BillingRedirectSchema, BillingStateSchema, BillingWebhookAnswerSchema } from './billing.ts';

/** SPEC: the allowed error `code` values. */
export const ERROR_CODES = [
  'bad_request',
  'validation_error',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'conflict',
  'service_unavailable',
  'internal_error',
] as const;

/** `stats` of GET /api/v1/deals: counts over every match before `limit`. */
export const DealStatsSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  expired: z.number().int(),
  featured: z.number().int(),
  recommended: z.number().int(),
  scope: z.enum(['deals', 'programs', 'all']),
  byCategory: z.record(z.string(), z.number().int()),
});

/** The SPEC error object every failure answers with. */
export const ErrorBodySchema = z.strictObject({
  success: z.literal(false),
  error: z.string().describe('Human-readable message.'),
  code: z.enum(ERROR_CODES).describe('Stable machine-readable code.'),
  hint: z.string().optional().describe('Suggested next step.'),
  timestamp: z.iso.datetime({ offset: true }),
  fields: z
    .array(
      z.strictObject({ field: z.string().describe('The field, as named in the request body.'), message: z.string().describe('What is wrong with it, worded as `error` words the first problem.') }),
    )
    .optional()
    .describe(
      'Only on a refused submission (`POST /submit-deal?errors=all`) and on a deal an admin create or update refuses as invalid (`POST`/`PUT /deals?errors=all`): every problem, one per field, the one `error` names first.',
    ),
});

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

const success = z.literal(true);
const count = z.int().min(0);
const day = z.iso.date();

/** Why an instance is degraded, as it may be said to anyone. */
export const HEALTH_PROBLEMS = ['store_unwritable', 'content_pull_failed', 'content_invalid', 'content_stale', 'redis_down'] as const;

export const DealAnswerSchema = z.looseObject({ success, deal: DealSchema });
export const DealListSchema = z.looseObject({ success, deals: z.array(DealSchema), count, stats: DealStatsSchema });
export const StartupListSchema = z.looseObject({ success, startups: z.array(StartupSchema), total: count });

export const StartupAnswerSchema = z.looseObject({ success, startup: StartupSchema });

/** One field that differs between two versions of a record. */
export const FieldChangeSchema = z
  .looseObject({
    field: z.string().describe('The field as the API names it (`slug` is the file name, `description` the body).'),
    from: z.unknown().optional().describe('The value before; absent when the field was added.'),
    to: z.unknown().optional().describe('The value after; absent when the field was removed.'),
  })
  .describe('Values as written in the file, before validation (a hand commit may hold what the build refuses).');

/** One commit that changed a record's file. */
export const RecordVersionSchema = z.looseObject({
  commit: z.string().describe('Full commit id: what a revert names.'),
  date: z.string().describe('Author date, ISO 8601.'),
  author: z.looseObject({ name: z.string(), email: z.string() }).describe('For an admin change, the admin.'),
  message: z.string().describe('The commit subject.'),
  via: z.enum(['admin', 'git']).describe('`admin`: committed by this service (an admin write, an approved submission, a revert); `git`: committed by hand or another tool.'),
  change: z.enum(['created', 'updated', 'renamed', 'deleted']).describe('`renamed`: the file (the slug) changed name, maybe with other fields.'),
  slug: z.string().describe('The slug after the commit (before it, for `deleted`).'),
  fields: z.array(FieldChangeSchema).describe("Every field that changed, old → new, in the schema's order."),
  problem: z.string().optional().describe('A version whose front matter could not be read: why (its fields are then not compared).'),
});

export const RecordHistorySchema = z.looseObject({
  success,
  id: z.string().optional().describe("The record's id (absent for a deleted record named by slug)."),
  slug: z.string(),
  history: z.array(RecordVersionSchema).describe('Newest first.'),
  offset: count,
  limit: count,
  more: z.boolean().describe('Older versions follow: ask again with `offset` + `limit`.'),
});

/** What a revert answers besides the record as now served: the new commit, and the version put back. */
const REVERT_FIELDS = {
  commit: z.string().optional().describe('The commit the content is at now: a new one, unless that version was what is already stored.'),
  revertedTo: z.string().describe('The commit whose version was put back.'),
};
export const DealRevertedSchema = z.looseObject({ success, deal: DealSchema, ...REVERT_FIELDS });
export const StartupRevertedSchema = z.looseObject({ success, startup: StartupSchema, ...REVERT_FIELDS });

/** What a change did to a record, as the public sees it (drafts are not public: publishing one adds it, making one removes it). */
export const CHANGE_TYPES = ['added', 'updated', 'expired', 'removed'] as const;

/** One change to a public deal or startup, read from the content's history (GET /changes). */
export const ChangeSchema = z.looseObject({
  commit: z.string().describe('The commit that made it (full id).'),
  date: z.iso.datetime().describe('When that commit was made on the branch served (committer date, UTC).'),
  kind: z.enum(CHANGE_KINDS),
  slug: z.string().describe('The slug after the change (before it, for `removed`).'),
  previousSlug: z.string().optional().describe('A renamed record: its slug before.'),
  change: z
    .enum(CHANGE_TYPES)
    .describe('`added`: new, or a draft published; `updated`: fields changed; `expired`: an update that set `status` to `expired`; `removed`: deleted, or made a draft again.'),
  fields: z
    .array(z.string())
    .optional()
    .describe("`updated` and `expired`: the fields that changed, in the schema's order (`slug` for a rename, `description` for the body); their values are on the record's page and in the API."),
  title: z.string().describe("A deal's title or a startup's name, as the change left it (as it was, for `removed`)."),
  url: z.string().optional().describe('The page of the record (absent for `removed`).'),
  message: z.string().describe('The commit subject.'),
  via: z.enum(['admin', 'git']).describe('`admin`: committed by this service (an admin write, an approved submission); `git`: by hand or another tool.'),
});

export const ChangesSchema = z.looseObject({
  success,
  head: z.string().describe('The commit the feed is read from (the content served): pass it as `since` to ask for what changed after this answer.'),
  changes: z.array(ChangeSchema).describe('Newest first.'),
  next: z
    .string()
    .optional()
    .describe(
      `More may follow: pass it as \`cursor\` (with the same \`since\` and \`kind\`) for the next page. A page holds fewer than \`limit\` changes, even none, when it read its share of commits (${PAGE_COMMITS}) first: follow \`next\` until it is absent.`,
    ),
  complete: z
    .boolean()
    .describe(
      `\`false\` on the last page when the list stopped at the oldest commit the feed keeps (the newest ${CHANGES_REACH} of the branch) and older ones exist: changes before it are not listed.`,
    ),
});

/** What a logo upload or removal answers (PUT and DELETE /admin/deals/logo, /admin/startups/logo). */
export const LogoChangeSchema = z.looseObject({
  success,
  slug: z.string().describe('The record whose logo changed.'),
  logo: z.string().optional().describe('Upload: where the site serves the image now (`/logos/<deals|startups>/<slug>.webp`).'),
  commit: z.string().optional().describe('The commit the content is at now: a new one, unless the same image was already stored.'),
});

/** What the admin's Logo panel reads (GET /admin/deals/logo, /admin/startups/logo). */
export const LogoStateSchema = z.looseObject({
  success,
  slug: z.string(),
  image: z
    .string()
    .nullable()
    .describe(
      'Where the image the site shows for the record now (changed since the build, or built; a draft’s too) is, for an admin: this operation asked for `image/webp` (an `<img>` does); `null`: its monogram.',
    ),
  file: z
    .string()
    .nullable()
    .describe('The logo file of the record in the content repository (`logos/<deals|startups>/<slug>.<ext>`), the one the build uses; `null`: none (the image, if any, comes from `logoUrl`).'),
});

export const WriteResultSchema = z.looseObject({
  success,
  created: count.optional(),
  updated: count.optional(),
  deleted: count.optional(),
  ids: z.array(z.string()).optional(),
  slugs: z.array(z.string()).optional(),
});

export const SessionAnswerSchema = z.looseObject({
  success,
  user: z.looseObject({ email: z.string(), role: z.enum(['admin', 'member']) }),
  expiresAt: z.string().optional().describe('When the session ends (GET /auth/session).'),
});
export const SignedOutSchema = z.looseObject({ success });

/** What sign-up and the password-reset steps answer: what happens next, in words (never whether an address has an account). */
export const AccountMessageSchema = z.looseObject({ success, message: z.string() });

export const SubmissionAcceptedSchema = z.looseObject({
  success,
  id: z.string(),
  duplicate: z.boolean().optional().describe('The same company and link were submitted within a day: this is the earlier id.'),
});

export const SubmissionRecordSchema = z
  .looseObject({
    id: z.string(),
    status: z.enum(['pending', 'approved', 'rejected']),
    submittedAt: z.string(),
    emailRemovedAt: z.string().optional(),
  })
  .describe('A stored submission: its fields plus review state. `submitter_email` is removed a set number of days after review (`emailRemovedAt` says when).');
export const SubmissionPageSchema = z.looseObject({
  success,
  submissions: z.array(SubmissionRecordSchema),
  total: count,
  deals: z.record(z.string(), DealSchema.partial()).describe('By pending submission id: the deal approving it without edits would publish (category left out when none follows).'),
});
export const ApprovedSchema = z.looseObject({ success, deal: DealSchema, submission: SubmissionRecordSchema });
export const RejectedSchema = z.looseObject({ success, submission: SubmissionRecordSchema });

export const SearchGapReportSchema = z.looseObject({
  success,
  days: count,
  from: day,
  to: day,
  searches: count.describe('Finished searches counted in the period.'),
  zero: count.describe('Of those, how many found nothing.'),
  low: count.describe('Of those, how many found 1 or 2 deals.'),
  queries: z.array(
    z.looseObject({
      query: z.string().describe('Normalised: lower case, no accents or punctuation; e-mail addresses and long numbers replaced.'),
      zero: count,
      low: count,
      lastSeen: day,
    }),
  ),
});

const AttentionRowSchema = z.looseObject({
  kind: z.enum(['deal', 'startup']),
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  checkUrl: z.string().optional().describe('Where to check the facts: `sourceUrl`, else the application page or the listing.'),
  checkedOn: day.optional().describe('The day the facts were last checked (`lastVerified`, else `lastUpdated`); absent: never dated.'),
  expiryDate: day.optional(),
  days: z.number().int().optional().describe('`expired`: days since the expiry date; `expiring`: days left; `stale`: days since the check.'),
  verified: z.boolean().optional(),
  link: z
    .looseObject({ field: z.string(), url: z.string(), verdict: z.string(), detail: z.string(), status: z.number().int().optional(), finalUrl: z.string().optional() })
    .optional()
    .describe('`links`: what the last link check found for this field.'),
});
export const AttentionReportSchema = z.looseObject({
  success,
  today: day,
  rules: z.looseObject({ maxAgeDays: count, expiringWithinDays: count }).describe("site.yaml's `freshness`."),
  linkCheck: z
    .looseObject({ checkedAt: z.string().optional(), checked: count.optional(), counts: z.record(z.string(), count).optional(), problem: z.string().optional() })
    .describe('The last `npm run verify-links` report, or the `problem` reading it.'),
  expired: z.array(AttentionRowSchema).describe('Deals past their expiry date whose status is not `expired`.'),
  expiring: z.array(AttentionRowSchema).describe('Deals expiring within `rules.expiringWithinDays`.'),
  stale: z.array(AttentionRowSchema).describe('Verified deals and listings for sale not checked within `rules.maxAgeDays`, or never dated.'),
  links: z.array(AttentionRowSchema).describe('Links the last check found not `ok`, on records that still have them.'),
});

export const HealthSchema = z.looseObject({
  success,
  status: z.enum(['ok', 'degraded']),
  problems: z.array(z.enum(HEALTH_PROBLEMS)),
  catalogVersion: z.string(),
  deals: count,
  startups: count,
  contentCommit: z.string().optional().describe('Details (this machine or an admin): the content commit served.'),
  store: z.looseObject({ writable: z.boolean().optional(), problem: z.string().optional() }).optional().describe('Details: whether the content store can take writes.'),
  content: z
    .looseObject({ indexedCommit: z.string().optional(), remote: z.string().nullable().optional(), lastPullAt: z.string().optional(), problem: z.string().optional() })
    .optional()
    .describe('Details: content sync.'),
  redis: z.enum(['ok', 'down', 'disabled']).optional().describe('Details: the shared store.'),
  uptimeSeconds: count.optional().describe('Details.'),
  memoryMb: z.looseObject({ rss: count.optional(), heapUsed: count.optional() }).optional().describe('Details.'),
});

/** Every answer shape by its name in /openapi.json (`#/components/schemas/<name>`). */
export const ANSWER_SCHEMAS = {
  Deal: DealSchema,
  Startup: StartupSchema,
  DealStats: DealStatsSchema,
  DealAnswer: DealAnswerSchema,
  DealList: DealListSchema,
  StartupList: StartupListSchema,
  StartupAnswer: StartupAnswerSchema,
  RecordHistory: RecordHistorySchema,
  RecordVersion: RecordVersionSchema,
  FieldChange: FieldChangeSchema,
  Change: ChangeSchema,
  Changes: ChangesSchema,
  DealReverted: DealRevertedSchema,
  StartupReverted: StartupRevertedSchema,
  WriteResult: WriteResultSchema,
  LogoChange: LogoChangeSchema,
  LogoState: LogoStateSchema,
  SessionAnswer: SessionAnswerSchema,
  SignedOut: SignedOutSchema,
  AccountMessage: AccountMessageSchema,
  SubmissionAccepted: SubmissionAcceptedSchema,
  SubmissionRecord: SubmissionRecordSchema,
  SubmissionPage: SubmissionPageSchema,
  Approved: ApprovedSchema,
  Rejected: RejectedSchema,
  SearchGapReport: SearchGapReportSchema,
  AttentionReport: AttentionReportSchema,
  Health: HealthSchema,
  SavedItems: SavedItemsSchema,
  SavedChange: SavedChangeSchema,
  Dashboard: DashboardSchema,
  ProfileAnswer: ProfileAnswerSchema,
  SeenAnswer: SeenAnswerSchema,
  AlertRound: AlertRoundSchema,
  MemberExport: MemberExportSchema,
  BillingState: BillingStateSchema,
  BillingRedirect: BillingRedirectSchema,
  BillingWebhookAnswer: BillingWebhookAnswerSchema,
  Error: ErrorBodySchema,
} as const;

export type DealList = z.infer<typeof DealListSchema>;
export type RecordHistory = z.infer<typeof RecordHistorySchema>;
export type RecordVersion = z.infer<typeof RecordVersionSchema>;
export type FieldChange = z.infer<typeof FieldChangeSchema>;
export type Change = z.infer<typeof ChangeSchema>;
export type Changes = z.infer<typeof ChangesSchema>;
export type WriteResult = z.infer<typeof WriteResultSchema>;
export type LogoChange = z.infer<typeof LogoChangeSchema>;
export type LogoState = z.infer<typeof LogoStateSchema>;
export type SessionAnswer = z.infer<typeof SessionAnswerSchema>;
export type Health = z.infer<typeof HealthSchema>;
export type SearchGapReport = z.infer<typeof SearchGapReportSchema>;
