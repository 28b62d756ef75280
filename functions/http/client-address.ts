/**
 * What a platform adapter knows about a request that Web `Request` has no field for: the
 * client address (DESIGN: the socket address; `X-Forwarded-For` only behind trusted proxies),
 * the request id, and the rate-limit decision the adapter already took.
 */
import { isIPv6 } from 'node:net';
import type { RateDecision } from './rate-limits.ts';

export interface RequestContext {
  address: string;
  requestId?: string;
  rate?: RateDecision;
}

const contexts = new WeakMap<Request, RequestContext>();

export function setRequestContext(request: Request, context: RequestContext): void {
  contexts.set(request, context);
}

export function requestContext(request: Request): RequestContext | undefined {
  return contexts.get(request);
}

/** The client's address, or `unknown` (all such requests then share one budget). */
export function clientAddress(request: Request): string {
  return contexts.get(request)?.address ?? 'unknown';
}

/**
 * The key a client is limited by: its IPv4 address, or the /64 network of an IPv6 address (one
 * subscriber usually holds a whole /64, so per-address keys would give it 2^64 budgets).
 * @example limitKey('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 * @example limitKey('::ffff:203.0.113.7') // '203.0.113.7'
 */
export function limitKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * The client address given the socket peer and `X-Forwarded-For`, trusting `hops` proxies:
 * each trusted proxy appends the address it saw, so the client is `hops` entries from the end.
 * @example clientAddressFrom('10.0.0.2', '203.0.113.7, 10.0.0.1', 1) // '10.0.0.1' (the address the one trusted proxy saw)
 */
export function clientAddressFrom(socketAddress: string | undefined, forwardedFor: string | undefined, hops: number): string {
  const socket = socketAddress ?? 'unknown';
  if (hops <= 0 || !forwardedFor) return socket;
  const chain = [...forwardedFor.split(',').map((s) => s.trim()).filter(Boolean), socket];
  return chain[Math.max(0, chain.length - 1 - hops)] ?? socket;
}

/**
 * Whether the client reached the outermost trusted proxy over HTTPS, from `X-Forwarded-Proto`
 * (never without trusted proxies). Proxies that append take the entry `hops` from the end, like
 * `X-Forwarded-For`, so a client cannot put `https` in front; a single value is the proxy's own.
 * @example forwardedHttps('http, https', 1) // true: the one trusted proxy appended "https"
 */
export function forwardedHttps(forwardedProto: string | undefined, hops: number): boolean {
  if (hops <= 0 || !forwardedProto) return false;
  const chain = forwardedProto.split(',').map((s) => s.trim().toLowerCase());
  return chain[Math.max(0, chain.length - hops)] === 'https';
}

// --- internal ---

/** The eight 16-bit groups of an IPv6 address (lower-case hex), `::` expanded; a zone id is dropped. */
function expandIPv6(address: string): string[] {
  const bare = address.toLowerCase().split('%')[0] as string;
  const [head = '', tail] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 style) counts as two groups; only the first four matter here.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const zeros = tail === undefined ? [] : Array<string>(8 - width(left) - width(right)).fill('0');
  return [...left, ...zeros, ...right];
}
