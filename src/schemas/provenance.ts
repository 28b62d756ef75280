/**
 * Where a record's facts were checked, and when (issue 20): optional fields of the Deal and
 * Startup schemas, so the editors' JSON Schema, the OpenAPI components, `npm run check`, the
 * pages and `npm run verify-links` all follow. docs/freshness.md says how they are kept fresh.
 */
import { httpUrl, isoDate } from './fields.ts';

export const provenanceFields = {
  sourceUrl: httpUrl().describe("Where an editor checked the facts: the provider's own page with the terms (or the listing), an absolute `https://` link.").optional(),
  lastVerified: isoDate().describe('The day an editor last checked the facts against the source (YYYY-MM-DD). Older than the site’s `freshness.maxAgeDays`, the record is listed as stale.').optional(),
};
