/**
 * The member's dashboard (issue 18, item 4): the short profile deals are matched against, what
 * changed on saved items since the member last looked, deals expiring soon, and deals the member
 * may qualify for. The OpenAPI document publishes these under the names in `REQUEST_SCHEMAS` and
 * `ANSWER_SCHEMAS`; the /account/ page renders the same answer.
 */
import * as z from 'zod';
import { MemberSubmissionSchema } from './member-submissions.ts';
import { text } from './fields.ts';
import { RegionSchema, StageSchema } from './program.ts';
import { SAVED_KINDS, SavedItemSchema } from './saved.ts';

/** What a member says about their startup, all optional: each fact left out matches every deal. */
export const MemberProfileSchema = z.object({
  stage: StageSchema.optional().describe('Funding stage now: `idea`, `pre-seed`, `seed`, `series-a` or `growth`.'),
  region: RegionSchema.optional().describe('Where the startup is based, such as `fr`, `eu`, `us` or `global`.'),
  fundingUsd: z
    .number()
    .int({ error: 'expected a whole number of US dollars, like `250000`' })
    .min(0, { error: 'expected a whole number of US dollars from 0, like `250000`' })
    .max(100_000_000_000, { error: 'expected at most 100000000000 (US dollars)' })
    .optional()
    .describe('Funding raised so far, in whole US dollars (`0` when none).'),
  builds: text(200).optional().describe('What the startup builds, in a few words, such as `AI developer tools`: matched against the deals as a search would be.'),
  alerts: z.boolean().default(false).describe('E-mail a digest when a saved deal changes or is about to expire (one-click unsubscribe in every mail).'),
});

/** POST /api/v1/me/profile: the whole profile (a form's unchecked `alerts` box is `false`). */
export const MemberProfileRequestSchema = MemberProfileSchema.extend({
  next: z.string().max(512).optional().describe('Form posts: the page of the site to go back to (a path starting with one `/`).'),
});

/** POST /api/v1/me/saved/seen: one item, or every item when `kind` and `id` are left out. */
export const SeenRequestSchema = z
  .object({
    kind: z.enum(SAVED_KINDS).optional().describe('With `id`: the one item to mark as seen.'),
    id: z.string().min(1).max(200).optional().describe("With `kind`: the record's `id`."),
  })
  .refine((body) => (body.kind === undefined) === (body.id === undefined), { error: 'expected `kind` and `id` together (one item), or neither (every item)', path: ['id'] });

/** The facts of a saved record that a member is told about when they change. */
export const WATCHED_FIELDS = ['state', 'title', 'value', 'status', 'expiryDate', 'forSale', 'askingPrice'] as const;
export type WatchedField = (typeof WATCHED_FIELDS)[number];

/** The watched facts of a saved record as of a moment (what the member last saw, or was last mailed). */
export type Snapshot = Partial<Record<WatchedField, string>>;

export const WatchedChangeSchema = z.looseObject({
  field: z.enum(WATCHED_FIELDS),
  from: z.string().optional().describe('As the member last saw it (absent: it had none).'),
  to: z.string().optional().describe('As served now (absent: it has none now).'),
});

export const DashboardItemSchema = SavedItemSchema.extend({
  changes: z.array(WatchedChangeSchema).describe('What changed since the member last marked the item as seen; empty when nothing did.'),
});

/** A deal in the "expiring soon" or "you may qualify" lists. */
export const DashboardDealSchema = z.looseObject({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  provider: z.string(),
  url: z.string().describe('The deal page.'),
  value: z.string().optional(),
  expiryDate: z.string().optional().describe('Expiring: the last day; programs: the next deadline when it comes first.'),
  daysLeft: z.number().int().optional().describe('Days until that day (0: today).'),
  saved: z.boolean().describe('Whether the member has saved it.'),
  reasons: z.array(z.string()).optional().describe('May qualify: why it is suggested, in words (the facts of the profile it meets).'),
});

export const DashboardSchema = z.looseObject({
  success: z.literal(true),
  profile: MemberProfileSchema,
  saved: z.array(DashboardItemSchema).describe('Saved items, changed ones first, then newest first.'),
  changed: z.number().int().describe('How many saved items changed since last seen.'),
  expiringSoon: z.array(DashboardDealSchema).describe('Open deals whose last day (or next deadline) is within the site\'s "expiring soon" days, soonest first.'),
  mayQualify: z.array(DashboardDealSchema).describe('Open deals matching the profile, best first; empty until the profile says something.'),
  submissions: z.array(MemberSubmissionSchema).describe('Deals the member submitted while signed in, newest first (at most 50), each with its review state now.'),
});

export const ProfileAnswerSchema = z.looseObject({ success: z.literal(true), profile: MemberProfileSchema });
export const SeenAnswerSchema = z.looseObject({ success: z.literal(true), marked: z.number().int().describe('How many saved items were marked as seen.') });

export const AlertRoundSchema = z.looseObject({
  success: z.literal(true),
  ran: z.boolean().describe("Whether any member's digest was due (for an admin's request, which runs a round for everyone: whether any member has alerts on)."),
  members: z.number().int().describe('Members this round took (a round running at the same time on another instance takes the others).'),
  mailed: z.number().int().describe('Digests sent (a member with nothing new gets none).'),
  failed: z.number().int().describe('Digests that could not be sent (tried again by the next round).'),
  left: z.number().int().describe('Members still due when the round reached its time limit (a scheduled function); the next round takes them first. 0 otherwise.'),
});

export type MemberProfile = z.output<typeof MemberProfileSchema>;
export type MemberProfileRequest = z.output<typeof MemberProfileRequestSchema>;
export type WatchedChange = z.infer<typeof WatchedChangeSchema>;
export type DashboardItem = z.infer<typeof DashboardItemSchema>;
export type DashboardDeal = z.infer<typeof DashboardDealSchema>;
export type Dashboard = z.infer<typeof DashboardSchema>;
