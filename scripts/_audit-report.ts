/**
 * What `npm audit --json` said, as a verdict: pass, fail (high or critical advisories, or an
 * audit that broke), or not checked (only when the advisory service could not be reached: a
 * network failure, or an endpoint that a mirror or proxy does not serve).
 */

export interface AuditReport {
  error?: { code?: string; summary?: string; detail?: string } | unknown;
  statusCode?: number;
  code?: string;
  message?: string;
  metadata?: { vulnerabilities?: Record<string, number> };
}

export type AuditVerdict = { kind: 'pass' | 'fail' | 'not-checked'; message: string };

/** Network failures on the way to the advisory service. */
const UNREACHABLE_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNABORTED']);
/** HTTP answers that mean "no advisory service here" (405: a proxy allowing only GET; 404: a mirror without it; 5xx gateways). */
const UNREACHABLE_STATUSES = new Set([404, 405, 501, 502, 503, 504]);

/**
 * @example auditVerdict({ metadata: { vulnerabilities: { high: 1 } } }).kind // 'fail'
 */
export function auditVerdict(report: AuditReport): AuditVerdict {
  if (report.metadata && report.error === undefined) {
    const counts = report.metadata.vulnerabilities ?? {};
    const serious = (counts.high ?? 0) + (counts.critical ?? 0);
    const summary = `npm audit: ${JSON.stringify(counts)}`;
    return serious > 0 ? { kind: 'fail', message: `${summary}\n${serious} high or critical advisories: run \`npm audit\` for the list.` } : { kind: 'pass', message: summary };
  }
  const code = report.code ?? (report.error as { code?: string } | undefined)?.code;
  const why = report.message ?? `${report.statusCode ?? code ?? 'no advisory data'}`;
  if ((code !== undefined && UNREACHABLE_CODES.has(code)) || (report.statusCode !== undefined && UNREACHABLE_STATUSES.has(report.statusCode))) {
    return { kind: 'not-checked', message: `npm audit could not reach the advisory service (${why}): NOT CHECKED.` };
  }
  return { kind: 'fail', message: `npm audit failed (${why}): fix the cause; this is not a network outage.` };
}
