/**
 * A link-health run: every link probed through one host gate, a 2xx answer compared with its
 * site's answer to a random path (fetched once per site), each classified; the report the CLI
 * writes and the admin reads. It reads records and never writes one: what to change is the
 * editors' call.
 */
import { randomBytes } from 'node:crypto';
import type { Backoff } from './backoff.ts';
import { classify, isHomePage, type Observation } from './classify.ts';
import type { LinkTarget } from './collect.ts';
import { hostGate } from './host-gate.ts';
import { probe, type ProbeOptions } from './probe.ts';
import { countVerdicts, type LinkReport, type LinkResult } from './report.ts';
import type { ResolveMap } from './resolve-map.ts';

export interface CheckOptions {
  userAgent: string;
  timeoutMs: number;
  retries: number;
  perHost: number;
  concurrency: number;
  maxBytes: number;
  maxRedirects: number;
  backoff: Backoff;
  resolve: ResolveMap;
  /** Told of each link as soon as it is classified (for progress). */
  onResult?: (result: LinkResult) => void;
  now?: () => Date;
}

/** A browser-like cap: enough for a page's title and first screens of text. */
export const DEFAULT_MAX_BYTES = 512 * 1024;
export const DEFAULT_MAX_REDIRECTS = 10;

/**
 * @example const report = await checkLinks(collectLinks(catalog), { userAgent, timeoutMs: 10_000, retries: 2, perHost: 2, concurrency: 8, ... });
 */
export async function checkLinks(targets: readonly LinkTarget[], options: CheckOptions): Promise<LinkReport> {
  const now = options.now ?? (() => new Date());
  const checkedAt = now().toISOString();
  const probing: ProbeOptions = { ...options, gate: hostGate(options.perHost, options.concurrency) };
  const baselines = new Map<string, Promise<Observation>>();
  // Once per site, shared by all its links, checked or in flight.
  const baselineOf = (origin: string) => {
    let baseline = baselines.get(origin);
    if (!baseline) baselines.set(origin, (baseline = probe(`${origin}/${randomBytes(8).toString('hex')}`, probing)));
    return baseline;
  };
  const links = await Promise.all(
    targets.map(async (target): Promise<LinkResult> => {
      const observed = await probe(target.url, probing);
      const { outcome } = observed;
      const comparable = outcome.kind === 'answer' && outcome.status >= 200 && outcome.status <= 299 && !isHomePage(target.url);
      const baseline = comparable ? await baselineOf(new URL(outcome.url).origin) : undefined;
      const result = { url: target.url, ...classify(observed, baseline), redirects: observed.redirects, checkedAt: now().toISOString(), uses: target.uses };
      options.onResult?.(result);
      return result;
    }),
  );
  return { checkedAt, userAgent: options.userAgent, counts: countVerdicts(links), links };
}

/**
 * Whether no site answered at all though several were asked: then the checker's own network
 * or DNS is down, not every link, and the run says nothing about the links.
 * @example looksOffline(report) // true when every link of two or more hosts failed without an HTTP answer
 */
export function looksOffline(report: LinkReport): boolean {
  const hosts = new Set(report.links.map((link) => URL.parse(link.url)?.hostname));
  return hosts.size > 1 && report.links.every((link) => link.status === undefined && (link.verdict === 'error' || link.verdict === 'timeout'));
}

/**
 * The User-Agent the checker sends: who is asking and where to read why (RFC 9110 §10.1.5).
 * @example checkerUserAgent('https://deals.example.com') // 'startup-deals-catalog-link-check/0.1 (+https://deals.example.com/about/)'
 */
export function checkerUserAgent(siteUrl: string): string {
  return `startup-deals-catalog-link-check/0.1 (+${siteUrl.replace(/\/+$/, '')}/about/)`;
}
