/**
 * The link-health report for people (`link-health.md`): the count of each verdict, then every
 * finding grouped by verdict, each with what was seen and links to the admin pages of the
 * records that use it.
 */
import { VERDICTS, type LinkReport, type LinkUse } from './report.ts';

/**
 * @param siteUrl the site's address, for links to the records' admin pages
 * @example await writeFile('link-health.md', linkReportMarkdown(report, 'https://deals.example.com'))
 */
export function linkReportMarkdown(report: LinkReport, siteUrl: string): string {
  const uses = report.links.reduce((sum, link) => sum + link.uses.length, 0);
  const lines = [
    '# Link health',
    '',
    `Checked ${report.checkedAt}: ${report.links.length} links, used ${uses} times. User agent: \`${report.userAgent}\`.`,
    'Nothing was changed: each finding is for an editor to judge (docs/freshness.md, "Link health").',
    '',
    '| Verdict | Links |',
    '| --- | ---: |',
    ...VERDICTS.map((verdict) => `| ${verdict} | ${report.counts[verdict] ?? 0} |`),
    '',
    '## Findings',
  ];
  const findings = VERDICTS.filter((verdict) => verdict !== 'ok').map((verdict) => [verdict, report.links.filter((link) => link.verdict === verdict)] as const);
  for (const [verdict, links] of findings.filter(([, links]) => links.length > 0)) {
    lines.push('', `### ${verdict} (${links.length})`, '', '| Link | What was seen | Used by |', '| --- | --- | --- |');
    for (const link of links) lines.push(`| <${cell(link.url)}> | ${cell(link.detail)} | ${link.uses.map((use) => usedBy(use, siteUrl)).join('<br>')} |`);
  }
  if (findings.every(([, links]) => links.length === 0)) lines.push('', 'None: every link answered as expected.');
  return `${lines.join('\n')}\n`;
}

// --- internal ---

/** A record's admin page, where an editor fixes the link. */
function usedBy(use: LinkUse, siteUrl: string): string {
  return `[${use.kind} ${cell(use.slug)}](${siteUrl.replace(/\/+$/, '')}/admin/${use.kind}/?slug=${encodeURIComponent(use.slug)}) \`${use.field}\``;
}

/** Text safe in a table cell: no line breaks, `|` escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replaceAll('|', '\\|');
}
