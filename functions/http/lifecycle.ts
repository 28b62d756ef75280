/**
 * The API lifecycle table (SPEC "Versioning" 5): a route marked deprecated carries
 * `Deprecation` (RFC 9745, `@<unix seconds>`), `Sunset` (RFC 8594, HTTP date) and `Link`
 * relations `deprecation` (the written policy) and `successor-version` on every response; the
 * OpenAPI document marks it `deprecated` with the dates. Start-up refuses a table that gives
 * less than 180 days between deprecation and sunset.
 */
import { paths } from '../../src/agents/site-urls.ts';

export interface RouteLifecycle {
  /** Route path below `/api/v1`, such as `/startups`. */
  path: string;
  /** ISO 8601 date-time the route was (or will be) deprecated. */
  deprecatedAt: string;
  /** ISO 8601 date-time after which it may stop answering. */
  sunsetAt: string;
  /** The replacement, such as `/api/v2/startups`. */
  successor: string;
}

/** SPEC: a retirement is announced at least 180 days ahead. */
export const DEPRECATION_NOTICE_DAYS = 180;

/** v1 has no deprecated route yet. Operators (and tests) may add rows with API_LIFECYCLE (JSON). */
export const LIFECYCLE: readonly RouteLifecycle[] = [];

/**
 * The table in force: the built-in rows plus `API_LIFECYCLE`; throws on a row that breaks the rules.
 * @example lifecycleTable('[{"path":"/startups","deprecatedAt":"2027-01-01T00:00:00Z","sunsetAt":"2027-07-01T00:00:00Z","successor":"/api/v2/startups"}]')
 */
export function lifecycleTable(extra: string | undefined): Map<string, RouteLifecycle> {
  const rows = [...LIFECYCLE, ...(extra ? (JSON.parse(extra) as RouteLifecycle[]) : [])];
  for (const row of rows) {
    const deprecated = Date.parse(row.deprecatedAt);
    const sunset = Date.parse(row.sunsetAt);
    if (!row.path?.startsWith('/') || Number.isNaN(deprecated) || Number.isNaN(sunset) || !row.successor) {
      throw new Error(`API lifecycle row for ${JSON.stringify(row.path)} needs path, deprecatedAt, sunsetAt (ISO dates) and successor`);
    }
    if (sunset - deprecated < DEPRECATION_NOTICE_DAYS * 24 * 60 * 60 * 1000) {
      throw new Error(`API lifecycle row for ${row.path}: sunset ${row.sunsetAt} is less than ${DEPRECATION_NOTICE_DAYS} days after deprecation ${row.deprecatedAt}`);
    }
  }
  return new Map(rows.map((row) => [row.path, row]));
}

/** The four signals for a deprecated route's responses. */
export function lifecycleHeaders(row: RouteLifecycle): { deprecation: string; sunset: string; links: string[] } {
  return {
    deprecation: `@${Math.floor(Date.parse(row.deprecatedAt) / 1000)}`,
    sunset: new Date(Date.parse(row.sunsetAt)).toUTCString(),
    links: [`<${paths.versioningPolicy}>; rel="deprecation"; type="text/html"`, `<${row.successor}>; rel="successor-version"`],
  };
}
