/**
 * The small request bodies of the API: sign-in (password or mailed link), sign-up, password reset and sign-out, the review of submissions, and
 * reverting a record to an earlier version.
 * Handlers check bodies with these schemas (functions/http/valid-body.ts) and /openapi.json
 * publishes them under the names in `REQUEST_SCHEMAS`. Deals and submissions have schemas of
 * their own (deal.ts, submission.ts).
 */
import * as z from 'zod';
import { DEAL_STATUSES } from './deal.ts';
import { AccountDeletionSchema } from './member-data.ts';
import { SavedItemRequestSchema } from './saved.ts';
import { MemberProfileRequestSchema, SeenRequestSchema } from './dashboard.ts';
import { BillingRequestSchema } from './billing.ts';

/** A value with a non-space character: a string of spaces is not an answer. */
const filled = (field: string) => z.string({ error: `is required (${field})` }).regex(/\S/, { error: `must not be empty (${field})` });

/** Form posts: where to go once signed in. */
const nextPage = z.string().max(512).optional().describe('Form posts: the page of this site to go to once signed in (a path starting with one `/`; anything else is ignored).');

export const SignInSchema = z.object({
  email: filled('an e-mail address').describe('Compared without surrounding spaces or case.'),
  password: z.string({ error: 'is required' }).min(1, { error: 'must not be empty' }),
  next: nextPage,
});

/** A new password: what sign-up and a password reset take. */
const newPassword = z.string({ error: 'is required' }).min(8, { error: 'must have at least 8 characters' }).max(200, { error: 'must have at most 200 characters' }).describe('At least 8 characters.');

/** An address mail can be sent to (sign-up, a sign-in link). */
const mailAddress = z
  .string({ error: 'is required (an e-mail address)' })
  .trim()
  .max(254, { error: 'must have at most 254 characters' })
  .regex(/^[^@\s<>(),;:"[\]\\]+@[^@\s<>(),;:"[\]\\]+\.[^@\s<>(),;:"[\]\\]+$/, { error: 'expected an e-mail address such as `you@example.com`' });

export const SignUpSchema = z.object({
  email: mailAddress.describe('Where the confirmation link is sent; compared without case.'),
  password: newPassword,
});

export const SignInLinkRequestSchema = z.object({
  email: mailAddress.describe('Where the sign-in link is sent (a member account) or, for an address without an account, a note that links to sign-up; the answer is the same either way.'),
  next: nextPage,
});

export const SignInLinkSchema = z.object({
  token: filled('the token of the e-mailed link').describe('From the link of the sign-in e-mail; good for 15 minutes and one use.'),
});

export const PasswordResetRequestSchema = z.object({
  email: filled('an e-mail address').describe('The account to send a reset link to; the answer is the same whether or not it exists.'),
});

export const TokenSchema = z.object({
  token: filled('the token of the e-mailed link').describe('From the link of the confirmation e-mail; good for 48 hours.'),
});

export const PasswordResetSchema = z.object({
  token: filled('the token of the e-mailed link').describe('From the link of the reset e-mail; good for one hour and one use.'),
  password: newPassword,
});

export const SignOutSchema = z
  .object({ everywhere: z.boolean().optional().describe('Also end every other session of this account.') })
  .describe('Optional; a body that is not this object is ignored.');

export const ApprovalSchema = z.object({
  id: filled('the submission id').describe('The submission id.'),
  status: z.enum(DEAL_STATUSES).default('active'),
  category: z
    .string()
    .optional()
    .describe(
      "A deal category slug. Defaults to the submission's `site_category` (while the catalog has it), else to the deal category matching its `category`; required when neither gives one (`other`).",
    ),
  title: z.string().max(200).optional().describe('Defaults to the company and what it offers, like `Acme Startup Credits`.'),
  slug: z
    .string()
    .max(120)
    .regex(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/, { error: 'expected lowercase letters, digits and single hyphens, like `acme-credits`' })
    .optional()
    .describe('Defaults to a slug of the company name, unique in the catalog (`-2`, `-3`… when taken).'),
  // Read as an object here; its fields are checked by the deal write path, as POST /deals checks them (openapi.ts documents it as DealInput).
  deal: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "The deal as the admin edited it, with the fields and rules of POST /deals: published exactly as given (its `id` is the submission's deal id; `slug` defaults as above). When sent, `status`, `category`, `title` and `slug` above are ignored.",
    ),
});

export const RejectionSchema = z.object({
  id: filled('the submission id').describe('The submission id.'),
  reason: filled('why, in a sentence').describe('Why, in a sentence (kept to its first 1,000 characters).'),
});

/** A full commit id as the history lists it (SHA-1, or SHA-256 in repositories that use it): never a ref, a range or an option. */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export const RevertSchema = z.object({
  id: z.string().optional().describe("The record's id. `id` or `slug` is required; given both, they must name the same record."),
  slug: z.string().optional().describe("The record's slug; also names a deleted record, to restore it."),
  commit: z
    .string({ error: 'is required' })
    .regex(COMMIT_ID, { error: 'expected a full commit id (40 or 64 lowercase hexadecimal characters) as the history lists it' })
    .describe("The commit whose version to put back: one of the record's history, not one that deleted it."),
});

/** Every request body by its name in /openapi.json (`#/components/schemas/<name>`). */
export const REQUEST_SCHEMAS = {
  SignIn: SignInSchema,
  SignOut: SignOutSchema,
  SignUp: SignUpSchema,
  PasswordResetRequest: PasswordResetRequestSchema,
  PasswordReset: PasswordResetSchema,
  EmailConfirmation: TokenSchema,
  SignInLinkRequest: SignInLinkRequestSchema,
  SignInLink: SignInLinkSchema,
  Approval: ApprovalSchema,
  Rejection: RejectionSchema,
  Revert: RevertSchema,
  SavedItemRequest: SavedItemRequestSchema,
  MemberProfileRequest: MemberProfileRequestSchema,
  SeenRequest: SeenRequestSchema,
  AccountDeletion: AccountDeletionSchema,
  BillingRequest: BillingRequestSchema,
} as const;

export type SignIn = z.infer<typeof SignInSchema>;
export type Approval = z.infer<typeof ApprovalSchema>;
export type Rejection = z.infer<typeof RejectionSchema>;
export type Revert = z.infer<typeof RevertSchema>;
