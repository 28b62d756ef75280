/** Host names that mean this machine: plain http and non-Secure cookies are fine there (development, tests). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** @example isLoopbackHost(new URL('http://[::1]:4321').hostname) // true */
export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname);
