/** Host names that mean this machine: plain http and non-Secure cookies are fine there (development, tests). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Client addresses that are this machine (as a socket or `X-Forwarded-For` gives them). */
const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** @example isLoopbackHost(new URL('http://[::1]:4321').hostname) // true */
export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname);

/**
 * Whether a client address (the derived one: behind a trusted proxy, the client it names) is
 * this machine; operators' views (metrics, health details) are answered to these only.
 * @example isLoopbackAddress('::ffff:127.0.0.1') // true
 */
export const isLoopbackAddress = (address: string): boolean => LOOPBACK_ADDRESSES.has(address);
