/**
 * curl's `--resolve` for the link checker: connect to another address (and port) for a host
 * and port, while the request keeps the link's Host header and, over TLS, its server name and
 * certificate check. Tests point every catalog host at local servers this way; an operator can
 * check a site before its DNS moves. `*` as the host stands for every host on that port.
 */
import { isIP } from 'node:net';

/** Where to connect instead of asking DNS. */
export interface Destination {
  address: string;
  port: number;
}

export type ResolveMap = ReadonlyMap<string, Destination>;

/**
 * Parse `host:port:address[:port]` entries (an IPv6 address in brackets: `[::1]`).
 * @throws Error naming the entry that is not in that form
 * @example parseResolve(['deals.example:443:127.0.0.1:8443']).get('deals.example:443') // { address: '127.0.0.1', port: 8443 }
 */
export function parseResolve(entries: readonly string[]): ResolveMap {
  const map = new Map<string, Destination>();
  for (const entry of entries) {
    const match = /^([^:\s]+):(\d{1,5}):(\[[0-9a-f:.]+\]|[^:\s[\]]+)(?::(\d{1,5}))?$/i.exec(entry);
    const address = match?.[3]?.replace(/^\[|\]$/g, '') ?? '';
    if (!match || isIP(address) === 0 || !isPort(match[2]) || (match[4] !== undefined && !isPort(match[4]))) {
      throw new Error(`--resolve ${entry}: expected host:port:address[:port], such as deals.example:443:127.0.0.1:8443`);
    }
    map.set(`${match[1]?.toLowerCase()}:${Number(match[2])}`, { address, port: Number(match[4] ?? match[2]) });
  }
  return map;
}

/**
 * Where to connect for a URL: its entry in the map (the host's own before `*`), or undefined to use DNS.
 * @example destinationOf(parseResolve(['*:443:127.0.0.1:8443']), new URL('https://a.example/x')) // { address: '127.0.0.1', port: 8443 }
 */
export function destinationOf(map: ResolveMap, url: URL): Destination | undefined {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return map.get(`${url.hostname.toLowerCase()}:${port}`) ?? map.get(`*:${port}`);
}

// --- internal ---

function isPort(text: string | undefined): boolean {
  const port = Number(text);
  return Number.isInteger(port) && port > 0 && port <= 65535;
}
