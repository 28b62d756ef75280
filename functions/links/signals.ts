/**
 * The words and hosts the link checker reads a page by: the one place to add a phrase a
 * provider's "not found" page uses or a parking service's host. Phrases are matched in lower
 * case, with runs of spaces as one space and typographic apostrophes as `'`.
 */

/** A page saying the thing linked to is not there (any more): a soft-404 when it answers 200. */
export const GONE_PHRASES: readonly string[] = [
  'page not found',
  'page could not be found',
  'page cannot be found',
  "page can't be found",
  'page you requested could not',
  "page you're looking for doesn't exist",
  'page you are looking for does not exist',
  "page doesn't exist",
  'page does not exist',
  'no longer available',
  'no longer exists',
  'program has ended',
  'programme has ended',
  'program has closed',
  'this offer has expired',
  'this offer has ended',
  'offer is no longer',
  'promotion has ended',
  'has been discontinued',
];

/** Said by a page's title only (in body text they are too common to mean the page itself). */
export const GONE_TITLE_PHRASES: readonly string[] = ['404', 'not found'];

/** A parked domain's page: a registrar's or marketplace's placeholder instead of the site. */
export const PARKED_PHRASES: readonly string[] = [
  'this domain is for sale',
  'this domain may be for sale',
  'domain is for sale',
  'buy this domain',
  'make an offer on this domain',
  'domain parking',
  'parked free',
  'this domain is parked',
  'parked domain',
];

/** Parking services and domain marketplaces: a link redirected to one of these (or a subdomain) is parked. */
export const PARKING_HOSTS: readonly string[] = [
  'sedo.com',
  'sedoparking.com',
  'bodis.com',
  'dan.com',
  'afternic.com',
  'parkingcrew.net',
  'hugedomains.com',
  'above.com',
  'parklogic.com',
  'undeveloped.com',
  'buydomains.com',
  'domainmarket.com',
];
