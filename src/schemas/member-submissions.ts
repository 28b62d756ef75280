/**
 * A deal a member submitted while signed in (issue 18, item 5), as their dashboard shows it and
 * their data export lists it: what they submitted, and where its review stands now.
 */
import * as z from 'zod';

/** Where a submission's review stands; `unknown` while the submission store cannot be read. */
export const MEMBER_SUBMISSION_STATES = ['pending', 'approved', 'rejected', 'unknown'] as const;
export type MemberSubmissionState = (typeof MEMBER_SUBMISSION_STATES)[number];

export const MemberSubmissionSchema = z.looseObject({
  id: z.string().describe('The submission id (`sub-…`), as the submission was answered.'),
  companyName: z.string(),
  websiteUrl: z.string(),
  submittedAt: z.string().describe('When it was submitted (ISO 8601).'),
  status: z
    .enum(MEMBER_SUBMISSION_STATES)
    .optional()
    .describe('`pending`: waiting for an editor; `approved`: published as a deal; `rejected`: not published; `unknown`: the submission store cannot be read now.'),
  reviewedAt: z.string().optional().describe('When an editor reviewed it (ISO 8601).'),
  reason: z.string().optional().describe("Rejected: the editor's reason, when they gave one."),
  deal: z
    .looseObject({ id: z.string(), title: z.string(), url: z.string().describe('The deal page.') })
    .optional()
    .describe('Approved: the deal as published now (absent while it is not public).'),
});

export type MemberSubmission = z.infer<typeof MemberSubmissionSchema>;

/** What the submission form (/submit/) fills in for a signed-in member. */
export interface SubmitPrefill {
  email: string;
  /** From the member's last submission. */
  companyName?: string;
  websiteUrl?: string;
  /** Whether this submission will show on their dashboard (false: that needs a plan they lack). */
  tracked: boolean;
}
