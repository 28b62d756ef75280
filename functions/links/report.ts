/**
 * The link-health report (issue 20, "Link health"): what `npm run verify-links` found for each
 * link of the catalog, as one schema that yields the TypeScript type, the writer's shape and
 * the reader the server's "needs attention" page relies on. Objects are loose: a later checker
 * may add fields without breaking an older reader.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../store/durable-file.ts';
import { ifMissing } from '../../src/missing-file.ts';

/** Every verdict, in the order reports list them: the good one first, then by how sure the finding is. */
export const VERDICTS = ['ok', 'moved', 'gone', 'soft-404', 'home-redirect', 'parked', 'timeout', 'tls', 'error'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The record fields whose links are checked (a deal's `applicationUrl` and `providerWebsite`, any record's `sourceUrl`). */
export const LINK_FIELDS = ['applicationUrl', 'providerWebsite', 'sourceUrl'] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

/** The report files' names, by default in the private data folder (DATA_DIR): the Markdown one beside the JSON one. */
export const LINK_REPORT_JSON = 'link-health.json';
export const LINK_REPORT_MARKDOWN = 'link-health.md';

const isoTime = z.iso.datetime({ offset: true });

export const LinkUseSchema = z.looseObject({
  kind: z.enum(['deal', 'startup']),
  slug: z.string().min(1),
  field: z.enum(LINK_FIELDS),
});

/** One redirect answered on the way: its status and where it sent the checker (Location, made absolute). */
export const RedirectSchema = z.looseObject({ status: z.number().int(), url: z.string() });

export const LinkResultSchema = z.looseObject({
  url: z.string(),
  verdict: z.enum(VERDICTS),
  /** The last HTTP status received, when an answer came. */
  status: z.number().int().optional(),
  /** Where the redirects ended, when that is not `url`. */
  finalUrl: z.string().optional(),
  redirects: z.array(RedirectSchema),
  /** In words: what was seen, such as `404 Not Found` or `no answer within 10 s (3 tries)`. */
  detail: z.string(),
  checkedAt: isoTime,
  /** Every record and field holding this URL: each link is checked once. */
  uses: z.array(LinkUseSchema),
});

export const LinkReportSchema = z.looseObject({
  checkedAt: isoTime,
  userAgent: z.string(),
  counts: z.record(z.enum(VERDICTS), z.number().int().min(0)),
  links: z.array(LinkResultSchema),
});

export type LinkUse = z.output<typeof LinkUseSchema>;
export type Redirect = z.output<typeof RedirectSchema>;
export type LinkResult = z.output<typeof LinkResultSchema>;
export type LinkReport = z.output<typeof LinkReportSchema>;

/** How many links got each verdict, every verdict present (0 when none). */
export function countVerdicts(links: readonly Pick<LinkResult, 'verdict'>[]): Record<Verdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
  for (const link of links) counts[link.verdict] += 1;
  return counts;
}

/**
 * The last report in a folder, validated, for the server to read safely.
 * @returns undefined when no check has run yet (no file)
 * @throws Error naming the file and what is wrong with it, when it is not a link report
 * @example const report = await readLinkReport(join(config.dataDir, LINK_REPORT_JSON));
 */
export async function readLinkReport(path: string): Promise<LinkReport | undefined> {
  const text = await readFile(path, 'utf8').catch(ifMissing(undefined));
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not a link report: ${(error as Error).message}`, { cause: error });
  }
  const parsed = LinkReportSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    throw new Error(`${path} is not a link report: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * Write the report as JSON to `path` (such as `.data/link-health.json`) and as Markdown beside
 * it (`link-health.md`), each replaced whole (temp file and rename), so the server never reads
 * half a report.
 * @returns the two paths written
 */
export async function writeLinkReport(path: string, report: LinkReport, markdown: string): Promise<{ json: string; markdown: string }> {
  const paths = { json: path, markdown: join(dirname(path), `${basename(path, extname(path))}.md`) };
  // Not secret (every link is public), so readable by the operator's other tools.
  await writeFileAtomic(paths.json, `${JSON.stringify(report, null, 2)}\n`, 0o644);
  await writeFileAtomic(paths.markdown, markdown, 0o644);
  return paths;
}
