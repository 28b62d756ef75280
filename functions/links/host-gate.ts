/**
 * Politeness of the link checker: at most `perHost` requests in flight to one host and
 * `overall` in all. A request takes its host's slot first and a global one second, so requests
 * queued for a busy host hold no global slot that another host's could use.
 */
import pLimit, { type LimitFunction } from 'p-limit';

/** Runs `task` when its host (and the run) has a free slot. */
export type HostGate = <T>(host: string, task: () => Promise<T>) => Promise<T>;

/**
 * @example const gate = hostGate(2, 8); await gate('aws.amazon.com', () => getOnce(url, options));
 */
export function hostGate(perHost: number, overall: number): HostGate {
  const all = pLimit(overall);
  const hosts = new Map<string, LimitFunction>();
  return (host, task) => {
    let limit = hosts.get(host);
    if (!limit) hosts.set(host, (limit = pLimit(perHost)));
    return limit(() => all(task));
  };
}
