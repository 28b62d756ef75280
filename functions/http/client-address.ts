/**
 * What a platform adapter knows about a request that Web `Request` has no field for: the
 * client address (DESIGN: the socket address; `X-Forwarded-For` only behind trusted proxies),
 * the request id, and the rate-limit decision the adapter already took.
 */
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
