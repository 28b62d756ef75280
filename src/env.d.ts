/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** The live catalog, passed in by the Node adapter to on-demand pages (search results). */
    catalog?: import('./catalog/catalog.ts').Catalog;
    /** The OpenID Connect provider's button label, when one is configured (login page). */
    ssoName?: string | undefined;
    /** A deal changed since the build, rendered live on its page (set by the Node adapter). */
    liveDeal?: import('./schemas/deal.ts').Deal | undefined;
  }
}
