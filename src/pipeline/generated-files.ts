/**
 * The names of the files a build writes to `generated/` (emit.ts), apart from the writer: the
 * server reads them before its modules load (functions/reads/catalog-files.ts), so this module
 * imports nothing.
 */

export const CATALOG_FILE = 'catalog.json';
export const SEARCH_INDEX_FILE = 'search-index.json';
/** The postings the server's search reads, as typed arrays (catalog/postings-file.ts). */
export const SEARCH_POSTINGS_FILE = 'search-postings.bin';
/** What builds before the binary postings wrote instead (read when the binary file is missing). */
export const SEARCH_POSTINGS_JSON_FILE = 'search-postings.json';
export const STATS_FILE = 'stats.json';
/** Drafts (catalog/drafts.ts), apart from `catalog.json`, which the site's pages read: for the admin only. */
export const DRAFTS_FILE = 'drafts.json';
/** Where each record's JSON lies in `catalog.json` (catalog/record-spans.ts), so the server reuses those bytes. */
export const RECORD_SPANS_FILE = 'record-spans.json';
