/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** The live catalog, passed in by the site handler (functions/site/site.ts) to on-demand pages (search results). */
    catalog?: import('./catalog/catalog.ts').Catalog;
    /** The OpenID Connect provider's button label, when one is configured (login page). */
    ssoName?: string | undefined;
    /** A catalog page changed since the build, rendered live at its own URL (set by the site handler). */
    livePage?: import('./live-page.ts').LivePage | undefined;
    /** Count a finished search and how many deals it matched (the search-gap counter, set by the Node adapter). */
    searched?: (query: string, matches: number) => void;
    /**
     * Submit the deal posted to /submit/ (the request's form body) through the API's own path:
     * its limits for the client's address, validation and store (set by the site handler for a POST).
     */
    submitDeal?: (request: Request) => Promise<import('./schemas/submission.ts').FormSubmission>;
    /** The saved items of the request's signed-in session, undefined without one, `plan_required` when saving needs a plan the member lacks (/account/saved/; set by the site handler for on-demand pages). */
    savedItems?: () => Promise<import('./schemas/saved.ts').SavedItems | 'plan_required' | undefined>;
    /** The plan of the request's signed-in session, or undefined without one (/account/billing/; set by the site handler for on-demand pages). */
    billing?: () => Promise<import('./schemas/billing.ts').BillingState | undefined>;
  }
}
