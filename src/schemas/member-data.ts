/**
 * A member's own data (issue 18, item 7): what GET /api/v1/me/export answers (`MemberExport`, a
 * versioned document: `format`) and what POST /api/v1/me/delete takes (`AccountDeletion`).
 * The export has one field per section of member data; functions/members/member-data.ts
 * reads and removes each section, and `MEMBER_DATA` here gives each its shape and the words the
 * privacy pages use for it (what it holds, how long it is kept), so the pages, the export and
 * its OpenAPI component cannot drift. A new section is one entry here and one there.
 */
import * as z from 'zod';
import { SAVED_KINDS } from './saved.ts';
import { MemberSubmissionSchema } from './member-submissions.ts';

/** The export's shape and version: a change that is not additive takes the next number. */
export const MEMBER_EXPORT_FORMAT = 'member-data/1';

export const AccountExportSchema = z.looseObject({
  email: z.string().describe('The e-mail address the account signs in with.'),
  role: z.enum(['admin', 'member']).describe('`member`, or `admin` for an editor.'),
  createdAt: z.string().describe('When the account was made (ISO 8601); for a member who signed up again before confirming, the last sign-up.'),
  emailConfirmedAt: z.string().nullable().describe('When the address was confirmed (ISO 8601); `null` while it is not.'),
  hasPassword: z.boolean().describe('Whether the account has a password (only its scrypt hash is stored, and it is not exported); without one it signs in through the identity provider.'),
});

export const SavedItemExportSchema = z.looseObject({
  kind: z.enum(SAVED_KINDS),
  id: z.string().describe("The record's id in the catalog."),
  title: z.string().describe('The title (a startup: its name) as of saving.'),
  slug: z.string().describe('The slug as of saving.'),
  savedAt: z.string().describe('When it was saved (ISO 8601).'),
});

export const ProfileExportSchema = z
  .looseObject({
    stage: z.string().nullable(),
    region: z.string().nullable(),
    fundingUsd: z.number().nullable().describe('Funding raised, in US dollars.'),
    builds: z.string().nullable().describe('What the startup builds, in your words.'),
    alerts: z.boolean().describe('Whether alert digests are mailed.'),
    updatedAt: z.string().describe('When it was last saved (ISO 8601).'),
    alertsCheckedAt: z.string().nullable().describe('When an alert round last looked for news for you, a digest mailed or not (ISO 8601); `null` before the first.'),
  })
  .nullable();

export const PlanExportSchema = z
  .looseObject({
    status: z.string().nullable().describe("The subscription's status as Stripe last said it (`trialing`, `active`, `past_due`, `canceled`…)."),
    customerId: z.string().nullable().describe("Stripe's id of you as a customer (your card and invoices are kept by Stripe, not here)."),
    subscriptionId: z.string().nullable(),
    trialEnd: z.string().nullable(),
    currentPeriodEnd: z.string().nullable(),
    updatedAt: z.string(),
  })
  .nullable();

export const OutboxMailSchema = z.looseObject({
  kind: z.string().describe('What the mail was: `verify`, `reset`, `already-registered`…'),
  subject: z.string(),
  writtenAt: z.string().describe('When it was written (ISO 8601).'),
});

/** One section of member data: its shape in the export, and what the privacy pages say of it. */
export interface MemberDataSection {
  schema: z.ZodType;
  /** A short name, as a heading. */
  title: string;
  /** What it holds, in a sentence. */
  holds: string;
  /** How long it is kept, in a sentence. */
  kept: string;
  /** Left off the member's page while it holds nothing (a store most sites never use). */
  onlyWhenHeld?: boolean;
}

/**
 * Every section of a member's data, by its key in the export, in the order it is listed.
 * Every table or store holding member data has its section here and in
 * functions/members/member-data.ts (a test fails otherwise).
 */
export const MEMBER_DATA = {
  account: {
    schema: AccountExportSchema,
    title: 'Your account',
    holds:
      'Your e-mail address, your role, when the account was made and when you confirmed the address, and a hash of your password (never the password itself; none for an account that signs in through the identity provider).',
    kept: 'Until you delete the account. A sign-up that is never confirmed stops working after 48 hours and is deleted within the hour after that.',
  },
  savedItems: {
    schema: z.array(SavedItemExportSchema).describe('Newest first.'),
    title: 'Saved deals and startups',
    holds: "Each item you saved: the record's id, its title and slug as of saving, and when you saved it.",
    kept: 'Until you remove the item or delete the account.',
  },
  profile: {
    schema: ProfileExportSchema.describe('`null` until you fill the profile on your dashboard.'),
    title: 'Your profile and alerts',
    holds:
      'What you told us about your startup on your dashboard (stage, region, funding raised, what you build) to pick deals for you, and whether we mail you alert digests. Each saved item also keeps its facts as you last saw them and as the last digest told them, to show what changed.',
    kept: 'Until you change it or delete the account.',
    onlyWhenHeld: true,
  },
  plan: {
    schema: PlanExportSchema.describe('`null` unless you started a paid plan.'),
    title: 'Your plan',
    holds: "Where paid plans are on and you started one: Stripe's ids for you and your subscription, its status and dates. Your card and invoices are kept by Stripe, not here.",
    kept: 'Until you delete the account. Deleting it cancels a subscription that could still charge you, at Stripe, first; your invoices stay with Stripe.',
    onlyWhenHeld: true,
  },
  submissions: {
    schema: z.array(MemberSubmissionSchema).describe('Newest first; each with its review state as the submission store says it now.'),
    title: 'Deals you submitted',
    holds:
      'A link from your account to each deal you submitted while signed in, with the company and website you gave (they fill in your next submission). The submission itself, with what you typed, is kept in the review queue.',
    kept: 'Until you delete the account; then the links go, and your e-mail address is removed from those submissions (the deals you proposed stay in the review queue, without your name).',
    onlyWhenHeld: true,
  },
  outbox: {
    schema: z.array(OutboxMailSchema).describe('Empty unless the site runs without a mail server (development).'),
    title: 'Mail not sent',
    holds: 'Where no mail server is set up (a development copy of the site), the mail for you (a confirmation or reset link) is written to a file on the server instead of being sent.',
    kept: 'Until the operator deletes the files or you delete the account.',
    onlyWhenHeld: true,
  },
} as const satisfies Record<string, MemberDataSection>;

export type MemberDataKey = keyof typeof MEMBER_DATA;

/** The shape of each section in the export. */
export type MemberDataRows = { [K in MemberDataKey]: z.input<(typeof MEMBER_DATA)[K]['schema']> };

const sectionShapes = Object.fromEntries(Object.entries(MEMBER_DATA).map(([key, section]) => [key, section.schema.describe(`${section.holds} ${section.kept}`)])) as {
  [K in MemberDataKey]: (typeof MEMBER_DATA)[K]['schema'];
};

export const MemberExportSchema = z.looseObject({
  format: z.literal(MEMBER_EXPORT_FORMAT).describe('The shape and its version; a change that is not additive takes the next number.'),
  exportedAt: z.string().describe('When this copy was made (ISO 8601).'),
  site: z.string().describe("The site's address."),
  ...sectionShapes,
});

/** POST /api/v1/me/delete, as JSON or the fields of the form on /account/privacy/. */
export const AccountDeletionSchema = z.object({
  password: z.string().max(200).optional().describe('The current password: required for an account that has one.'),
  email: z
    .string()
    .max(254)
    .optional()
    .describe('An account without a password (it signs in through the identity provider): its e-mail address, typed to confirm; compared without case or surrounding spaces.'),
});

/** What /account/privacy/ shows of the signed-in member (functions/members/privacy.ts `signedInPrivacy`). */
export interface PrivacySummary {
  account: z.infer<typeof AccountExportSchema>;
  /** How many rows each section holds for the member (the account: 1). */
  counts: Record<MemberDataKey, number>;
  /** The member is the site's only admin: deleting the account is refused. */
  onlyAdmin: boolean;
}

export type MemberExport = z.infer<typeof MemberExportSchema>;
export type AccountDeletion = z.infer<typeof AccountDeletionSchema>;
