/**
 * Who sent a request (DESIGN: the socket address; `X-Forwarded-For` only behind trusted
 * proxies) and whether it came over HTTPS, for the platform adapters.
 */

/**
 * The client address given the socket peer and `X-Forwarded-For`, trusting `hops` proxies:
 * each trusted proxy appends the address it saw, so the client is `hops` entries from the end.
 * @example clientAddressFrom('10.0.0.2', '203.0.113.7, 10.0.0.1', 1) // '10.0.0.1' (the address the one trusted proxy saw)
 */
export function clientAddressFrom(socketAddress: string | undefined, forwardedFor: string | undefined, hops: number): string {
  const socket = socketAddress ?? 'unknown';
  if (hops <= 0 || !forwardedFor) return socket;
  const chain = [
    ...forwardedFor
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    socket,
  ];
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
