/**
 * The key a client is limited by (every rate limit, the submission budget, the sign-in
 * throttle). Its own module so the limits need nothing of the request-context code.
 */
import { isIPv6 } from 'node:net';

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
  return `${expandIPv6(address)
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
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
