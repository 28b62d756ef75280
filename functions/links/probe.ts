/**
 * Fetch one link as the checker sees it: follow its redirects (each hop recorded, at most
 * `maxRedirects`, loops stopped), every request through the host gate, and try again after a
 * backoff when the failure may pass (a timeout, a reset connection, 429 or 5xx).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { retryDelay, type Backoff } from './backoff.ts';
import type { Observation } from './classify.ts';
import type { HostGate } from './host-gate.ts';
import { readPage } from './page.ts';
import type { Redirect } from './report.ts';
import { getOnce, type RequestOptions } from './request.ts';

export interface ProbeOptions extends RequestOptions {
  maxRedirects: number;
  /** Tries after the first, for failures that may pass. */
  retries: number;
  backoff: Backoff;
  gate: HostGate;
}

/**
 * @example const observed = await probe('https://aws.amazon.com/activate/', options); classify(observed)
 */
export async function probe(url: string, options: ProbeOptions): Promise<Observation> {
  for (let attempt = 1; ; attempt++) {
    const { observation, retryable, retryAfter } = await follow(url, options);
    const observed = { ...observation, attempts: attempt };
    if (!retryable || attempt > options.retries) return observed;
    const wait = retryDelay(attempt, retryAfter, options.backoff);
    if (wait === undefined) return observed;
    // The wait holds no slot: other links of the site go on meanwhile.
    await sleep(wait);
  }
}

// --- internal ---

interface FollowResult {
  observation: Omit<Observation, 'attempts'>;
  retryable: boolean;
  retryAfter?: string | undefined;
}

/** One try: the redirects from `url` up to an answer or a failure. */
async function follow(url: string, options: ProbeOptions): Promise<FollowResult> {
  const redirects: Redirect[] = [];
  const failed = (detail: string, retryable = false, failure: 'timeout' | 'tls' | 'error' = 'error'): FollowResult => ({
    observation: { url, redirects, outcome: { kind: 'failure', failure, detail } },
    retryable,
  });
  let current = new URL(url);
  const seen = new Set([current.href]);
  for (;;) {
    const target = current;
    const exchange = await options.gate(target.hostname, () => getOnce(target, options));
    if (exchange.kind === 'failure') return failed(exchange.detail, exchange.retryable, exchange.failure);
    if (exchange.location !== undefined) {
      const next = URL.parse(exchange.location, current);
      if (!next || (next.protocol !== 'https:' && next.protocol !== 'http:')) return failed(`${exchange.status} to an address that is not an http(s) link: ${exchange.location.slice(0, 200)}`);
      redirects.push({ status: exchange.status, url: next.href });
      if (seen.has(next.href)) return failed('a redirect loop');
      if (redirects.length > options.maxRedirects) return failed(`more than ${options.maxRedirects} redirects`);
      seen.add(next.href);
      current = next;
      continue;
    }
    const page = exchange.body === undefined ? undefined : readPage(exchange.body);
    return {
      // Without redirects the link is reported as written (`https://a.example`, not the parser's `https://a.example/`).
      observation: { url, redirects, outcome: { kind: 'answer', status: exchange.status, url: redirects.length > 0 ? current.href : url, ...(page ? { page } : {}) } },
      retryable: exchange.status === 429 || exchange.status >= 500,
      retryAfter: exchange.retryAfter,
    };
  }
}
