/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** The live catalog, passed in by the site handler (functions/site/site.ts) to on-demand pages (search results). */
    catalog?: import('./catalog/catalog.ts').Catalog;
    /** The OpenID Connect provider's button label, when one is configured (login page). */
    ssoName?: string | undefined;
    /** A catalog page changed since the build, rendered live at its own URL (set by the site handler). */
    livePage?: import('./live-page.ts').LivePage | undefined;
    /** Whether a deal or startup has a logo image now, when it may differ from the build's (set by the site handler; functions/site/live-logos.ts). */
    hasLogo?: (kind: 'deals' | 'startups', slug: string) => boolean;
    /** Count a finished search and how many deals it matched (the search-gap counter, set by the Node adapter). */
    searched?: (query: string, matches: number) => void;
    /**
     * Submit the deal posted to /submit/ (the request's form body) through the API's own path:
     * its limits for the client's address, validation and store (set by the site handler for a POST).
     */
    submitDeal?: (request: Request) => Promise<import('./schemas/submission.ts').FormSubmission>;
    /**
     * What the member pages (/account/…) read of the request's signed-in session, each undefined
     * without one (set by the site handler for on-demand pages; functions/members/).
     */
    member?: {
      /** `plan_required`: saving needs a plan the member lacks (paid plans, docs/billing.md). */
      savedItems: () => Promise<import('./schemas/saved.ts').SavedItems | 'plan_required' | undefined>;
      dashboard: () => Promise<import('./schemas/dashboard.ts').Dashboard | 'plan_required' | undefined>;
      privacy: () => Promise<import('./schemas/member-data.ts').PrivacySummary | undefined>;
      billing: () => Promise<import('./schemas/billing.ts').BillingState | undefined>;
      /** What the submission form fills in, and whether the submission will be followed on the dashboard. */
      submitPrefill: () => Promise<import('./schemas/member-submissions.ts').SubmitPrefill | undefined>;
    };
  }
}
