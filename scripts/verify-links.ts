/**
 * `npm run verify-links`: check every `applicationUrl`, `providerWebsite` and `sourceUrl` of the
 * validated records (drafts too) politely, classify each, and write `link-health.json` and
 * `link-health.md` (docs/freshness.md, "Link health"). Never changes a record. Exit 0 when the
 * run completed (findings are not failures) unless `--fail-on` names a verdict found; 1 on
 * content errors or a failed run; 2 on a wrong command line.
 */
import { join } from 'node:path';
import { settings } from './_settings.ts';
import { parseLinkOptions, USAGE, UsageError, type LinkOptions } from './_link-options.ts';
import { listenUrl } from '../functions/config.ts';
import { utcDay } from '../functions/utc-day.ts';
import { DEFAULT_BACKOFF } from '../functions/links/backoff.ts';
import { checkerUserAgent, checkLinks, DEFAULT_MAX_BYTES, DEFAULT_MAX_REDIRECTS, looksOffline } from '../functions/links/check-links.ts';
import { checkedRecords, collectLinks } from '../functions/links/collect.ts';
import { linkReportMarkdown } from '../functions/links/report-markdown.ts';
import { LINK_REPORT_JSON, VERDICTS, writeLinkReport } from '../functions/links/report.ts';
import { runPipeline } from '../src/pipeline/build.ts';
import { formatDiagnostic, sortDiagnostics } from '../src/pipeline/diagnostics.ts';
import { readContent } from '../src/pipeline/read-content.ts';

const options = commandLine();
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const config = settings();
const built = runPipeline(await readContent(options.contentDir ?? config.contentDir), { today: utcDay(new Date()), index: false, baseUrl: listenUrl(config) });
if (!built.value) {
  for (const d of sortDiagnostics(built.diagnostics).filter((one) => one.severity === 'error')) console.error(formatDiagnostic(d));
  console.error('the content has errors (npm run check lists them): no link was checked');
  process.exit(1);
}
const { data } = built.value;
const records = checkedRecords(data);
const unknown = [...(options.only ?? [])].filter((slug) => ![...records.deals, ...records.startups].some((record) => record.slug === slug));
if (unknown.length > 0) wrongUsage(`--only ${unknown.join(',')}: no deal or startup has this slug`);

const targets = collectLinks(records, options.only);
const userAgent = checkerUserAgent(data.site.baseUrl);
console.log(`checking ${targets.length} links as ${userAgent}`);
const { timeoutMs, retries, perHost, concurrency, resolve } = options;
const report = await checkLinks(targets, {
  timeoutMs,
  retries,
  perHost,
  concurrency,
  resolve,
  userAgent,
  maxBytes: DEFAULT_MAX_BYTES,
  maxRedirects: DEFAULT_MAX_REDIRECTS,
  backoff: DEFAULT_BACKOFF,
  onResult: (link) => {
    if (link.verdict !== 'ok') console.log(`${link.verdict.padEnd(13)} ${link.url}  ${link.detail}`);
  },
});
if (looksOffline(report)) {
  console.error(`no site answered (${report.links.length} links): this machine's network or DNS is probably down; the last report is kept`);
  process.exit(1);
}
// Where the server's "Needs attention" page reads it (LINK_REPORT), unless told otherwise.
const written = await writeLinkReport(options.out ? join(options.out, LINK_REPORT_JSON) : config.linkReport, report, linkReportMarkdown(report, data.site.baseUrl));
console.log(`${VERDICTS.map((verdict) => `${verdict} ${report.counts[verdict]}`).join(', ')}\nwrote ${written.json} and ${written.markdown}`);
const failing = report.links.filter((link) => options.failOn.has(link.verdict)).length;
if (failing > 0) console.log(`${failing} link(s) with a verdict in --fail-on`);
process.exit(failing > 0 ? 1 : 0);

// --- internal ---

/** The options, or the usage and exit 2 when the command line is wrong. */
function commandLine(): LinkOptions {
  try {
    return parseLinkOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) wrongUsage(error.message);
    throw error;
  }
}

function wrongUsage(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}
