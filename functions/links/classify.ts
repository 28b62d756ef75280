/**
 * The verdict on one link from what was observed fetching it (and, for soft-404s, the same
 * site's answer to a random path). Pure: the fetching is functions/links/probe.ts, so every rule here
 * is tested on made-up observations (tests/unit/link-classify.test.ts).
 */
import { findPhrase, textSimilarity, withoutPhrases, wordCount, type Page } from './page.ts';
import type { Redirect, Verdict } from './report.ts';
import { GONE_PHRASES, GONE_TITLE_PHRASES, PARKED_PHRASES, PARKING_HOSTS } from './signals.ts';

/** What fetching one URL came to, after following its redirects and any retries. */
export type Outcome =
  | {
      kind: 'answer';
      /** The last status: the answer after the redirects. */
      status: number;
      /** The URL that gave it. */
      url: string;
      /** The page, for a 2xx answer in HTML or text. */
      page?: Page;
    }
  | { kind: 'failure'; failure: 'timeout' | 'tls' | 'error'; detail: string };

export interface Observation {
  url: string;
  outcome: Outcome;
  redirects: Redirect[];
  /** How many times the URL was fetched (1 plus the retries). */
  attempts: number;
}

export interface Classification {
  verdict: Verdict;
  detail: string;
  status?: number;
  finalUrl?: string;
}

/**
 * @param baseline the answer of the final URL's site to a random path: a soft-404 looks like it
 * @example classify({ url: 'https://a.example/x', outcome: { kind: 'answer', status: 410, url: 'https://a.example/x' }, redirects: [], attempts: 1 }).verdict // 'gone'
 */
export function classify(observed: Observation, baseline?: Observation): Classification {
  const { outcome, redirects } = observed;
  const tries = observed.attempts > 1 ? ` (${observed.attempts} tries)` : '';
  if (outcome.kind === 'failure') return { verdict: outcome.failure, detail: `${outcome.detail}${tries}${via(redirects)}` };
  const answered = { status: outcome.status, ...(outcome.url === observed.url ? {} : { finalUrl: outcome.url }) };
  const finding = (verdict: Verdict, detail: string): Classification => ({ verdict, detail, ...answered });
  const status = `${outcome.status} ${reason(outcome.status)}`;

  const parking = [...redirects.map((hop) => hop.url), outcome.url].map(hostOf).find(isParkingHost);
  if (parking) return finding('parked', `redirected to ${parking}, a domain parking service`);
  if (outcome.status === 404 || outcome.status === 410) return finding('gone', `${status}${via(redirects)}`);
  if (outcome.status < 200 || outcome.status > 299) return finding('error', `${status}${tries}${via(redirects)}${STATUS_HINTS[outcome.status] ?? ''}`);

  const page = outcome.page;
  const parkedWords = page && findPhrase(`${page.title} ${page.text}`, PARKED_PHRASES);
  if (parkedWords) return finding('parked', `${status}, but the page says "${parkedWords}"`);
  if (redirects.length > 0 && isHomePage(outcome.url) && !isHomePage(observed.url)) return finding('home-redirect', `redirected to the home page ${outcome.url}`);
  const goneWords = page && (findPhrase(page.title, [...GONE_PHRASES, ...GONE_TITLE_PHRASES]) ?? findPhrase(page.text.slice(0, PAGE_HEAD), GONE_PHRASES));
  if (goneWords) return finding('soft-404', `${status}, but the page says "${goneWords}"${via(redirects)}`);
  const likeRandom = isHomePage(observed.url) ? undefined : likeRandomPath(observed, outcome, baseline);
  if (likeRandom) return finding('soft-404', `${status}, but ${likeRandom}`);

  const first = redirects[0];
  if (first && PERMANENT.has(first.status) && !sameAddress(observed.url, outcome.url)) return finding('moved', `${first.status} ${reason(first.status)} to ${outcome.url}`);
  const unread = page && wordCount(page.text) < MIN_WORDS ? ' (little text: a page drawn by JavaScript is not read)' : '';
  return finding('ok', `${status}${via(redirects)}${unread}`);
}

/**
 * Whether a URL is a site's home page: the root, or a language's root such as `/en/` or `/fr-ca`.
 * @example isHomePage('https://a.example/en-us/') // true
 */
export function isHomePage(url: string): boolean {
  const path = URL.parse(url)?.pathname ?? '';
  return /^\/(?:[a-z]{2}(?:[-_][a-z]{2})?\/?)?$/i.test(path);
}

// --- internal ---

const PERMANENT = new Set([301, 308]);

/** "Not found" pages say so in their heading; deeper in a page ("what if my offer has expired?") the words are not the page's own state. */
const PAGE_HEAD = 2000;

/** Below this, a page is too bare to compare with another (a JavaScript shell looks like every other). */
const MIN_WORDS = 10;

/** Same title and this alike, or this alike whatever the titles: the random path's page. */
const SAME_TITLE_SIMILARITY = 0.5;
const SAME_TEXT_SIMILARITY = 0.9;

const STATUS_HINTS: Record<number, string> = {
  401: ': the page needs a login',
  403: ': refused to the checker (often a bot wall in front of the site); check it in a browser',
  429: ': the site asked the checker to slow down',
};

const REASONS: Record<number, string> = {
  200: 'OK',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function reason(status: number): string {
  return REASONS[status] ?? '';
}

function via(redirects: readonly Redirect[]): string {
  return redirects.length === 0 ? '' : ` after ${redirects.map((hop) => `${hop.status} to ${hop.url}`).join(', ')}`;
}

function hostOf(url: string): string {
  return URL.parse(url)?.hostname ?? '';
}

function isParkingHost(host: string): boolean {
  return PARKING_HOSTS.some((parking) => host === parking || host.endsWith(`.${parking}`));
}

/**
 * Why the page is the one the site gives for any path, or undefined: the random path was
 * redirected to the same place, or its page has the same title and much the same text, or
 * nearly the same text.
 */
function likeRandomPath(observed: Observation, outcome: Extract<Outcome, { kind: 'answer' }>, baseline: Observation | undefined): string | undefined {
  const other = baseline?.outcome;
  if (!baseline || other?.kind !== 'answer' || other.status < 200 || other.status > 299) return undefined;
  if (observed.redirects.length > 0 && baseline.redirects.length > 0 && other.url === outcome.url) return `a random path on the site is redirected to the same page`;
  if (!outcome.page || !other.page || wordCount(outcome.page.text) < MIN_WORDS) return undefined;
  const similarity = textSimilarity(withoutPath(outcome.page.text, observed.url), withoutPath(other.page.text, baseline.url));
  const sameTitle = outcome.page.title !== '' && outcome.page.title.toLowerCase() === other.page.title.toLowerCase();
  if ((sameTitle && similarity >= SAME_TITLE_SIMILARITY) || similarity >= SAME_TEXT_SIMILARITY) {
    return `the page is the one the site answers a random path with (${sameTitle ? 'same title, ' : ''}${Math.round(similarity * 100)}% the same text)`;
  }
  return undefined;
}

/** The text without the path it was fetched at (as typed or decoded): "not found" pages often repeat it. Only the whole path: a segment alone is often a word the page uses anyway. */
function withoutPath(text: string, url: string): string {
  const path = URL.parse(url)?.pathname ?? '';
  return path.length > 1 ? withoutPhrases(text, [...new Set([path, safeDecode(path)])]) : text;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The same address but for a move to https, a `www.` or a trailing slash: not worth an editor's change. */
function sameAddress(from: string, to: string): boolean {
  const key = (url: URL) => `${url.hostname.replace(/^www\./, '')}:${url.port}${url.pathname.replace(/\/+$/, '')}${url.search}`;
  const [a, b] = [URL.parse(from), URL.parse(to)];
  // A move from https to http is a downgrade an editor should see.
  return a !== null && b !== null && key(a) === key(b) && !(a.protocol === 'https:' && b.protocol === 'http:');
}
