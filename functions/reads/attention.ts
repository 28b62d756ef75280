/**
 * GET /api/v1/admin/attention (admin only): the "Needs attention" queues (src/catalog/attention.ts)
 * over the catalog served now, with the last link check's findings (`npm run verify-links`,
 * read from `config.linkReport`; docs/freshness.md). Nothing here changes a record: the page's
 * actions are the ordinary admin writes, each one commit.
 */
import { needsAttention } from '../../src/catalog/attention.ts';
import { requireAdmin, type SessionDeps } from '../auth/guard.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { readLinkReport, type LinkReport } from '../links/report.ts';
import { utcDay } from '../utc-day.ts';

export async function getAttention(request: Request, deps: SessionDeps & Pick<Deps, 'state' | 'config' | 'clock' | 'log'>): Promise<Response> {
  await requireAdmin(request, deps);
  const data = deps.state().catalog;
  const report = await linkReport(deps);
  const today = utcDay(deps.clock());
  const rules = data.site.freshness;
  const queues = needsAttention(data, today, rules, 'links' in report ? report.links : []);
  const linkCheck = 'links' in report ? { checkedAt: report.checkedAt, checked: report.links.length, counts: report.counts } : report;
  return answerResponse(request, jsonAnswer(200, { success: true, today, rules, linkCheck, ...queues }, { 'Cache-Control': 'no-store' }));
}

// --- internal ---

/**
 * The last report; `{ problem }` when no check has run or its file cannot be read, so the
 * other queues are still shown (with what to do about the report).
 */
async function linkReport(deps: Pick<Deps, 'config' | 'log'>): Promise<LinkReport | { problem: string }> {
  try {
    return (await readLinkReport(deps.config.linkReport)) ?? { problem: 'No link check has run yet: run `npm run verify-links` (docs/freshness.md).' };
  } catch (error) {
    deps.log.warn('link_report_unreadable', { file: deps.config.linkReport, error: error instanceof Error ? error.message : String(error) });
    return { problem: 'The last link check report cannot be read; run `npm run verify-links` again to write a fresh one.' };
  }
}
