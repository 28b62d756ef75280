/**
 * One download of a logo URL at build time, bounded: a deadline for the whole download
 * (redirects included), a size cap read from the stream (not only from Content-Length), at most
 * three redirects, http(s) only. Addresses inside the network the build runs in (loopback,
 * private, link-local, cloud metadata) are refused unless allowed, since a `logoUrl` may come
 * from a public submission: a build must not be made to read internal services.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { BlockList, isIP } from 'node:net';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  /** Tests serve logos from 127.0.0.1; a build never does. */
  allowPrivateAddresses?: boolean;
}

export type Download = { ok: true; bytes: Buffer } | { ok: false; problem: 'unreachable' | 'HTTP error' | 'timed out' | 'too large'; detail: string };

/**
 * @example const download = await fetchImage('https://example.com/logo.png', { timeoutMs: 5000, maxBytes: 1 << 20 });
 */
export async function fetchImage(url: string, limits: FetchLimits): Promise<Download> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const answer = await getOnce(current, limits, deadline);
    if (answer.kind === 'done') return answer.download;
    if (hop >= MAX_REDIRECTS) return { ok: false, problem: 'HTTP error', detail: `more than ${MAX_REDIRECTS} redirects` };
    current = answer.location;
  }
}

// --- internal ---

const MAX_REDIRECTS = 3;

type Hop = { kind: 'done'; download: Download } | { kind: 'redirect'; location: URL };

function getOnce(url: URL, limits: FetchLimits, deadline: AbortSignal): Promise<Hop> {
  const done = (download: Download): Hop => ({ kind: 'done', download });
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(done({ ok: false, problem: 'unreachable', detail: `${url.protocol} is not http(s)` }));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!limits.allowPrivateAddresses && isIP(host) && isInternal(host)) return Promise.resolve(done({ ok: false, problem: 'unreachable', detail: `${host} is an internal address` }));
  return new Promise((resolve) => {
    const get = url.protocol === 'https:' ? httpsGet : httpGet;
    const request = get(
      url,
      { signal: deadline, lookup: limits.allowPrivateAddresses ? undefined : publicLookup, headers: { Accept: 'image/*', 'User-Agent': 'startup-deals-catalog logo build' } },
      (response) => {
        void readResponse(url, response, limits, deadline).then(resolve);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (deadline.aborted) resolve(done(timedOut(limits)));
      else resolve(done({ ok: false, problem: 'unreachable', detail: error.message }));
    });
  });
}

function readResponse(url: URL, response: IncomingMessage, limits: FetchLimits, deadline: AbortSignal): Promise<Hop> {
  const { maxBytes } = limits;
  const done = (download: Download): Hop => ({ kind: 'done', download });
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (status >= 300 && status < 400 && location) {
    response.resume();
    return Promise.resolve(URL.canParse(location, url) ? { kind: 'redirect', location: new URL(location, url) } : done({ ok: false, problem: 'HTTP error', detail: 'redirect to an invalid address' }));
  }
  if (status !== 200) {
    response.resume();
    return Promise.resolve(done({ ok: false, problem: 'HTTP error', detail: `HTTP ${status}` }));
  }
  const tooLarge = done({ ok: false, problem: 'too large', detail: `more than ${Math.round(maxBytes / 1024)} KB` });
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    response.destroy();
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        response.destroy();
        resolve(tooLarge);
      } else chunks.push(chunk);
    });
    response.on('end', () => resolve(done({ ok: true, bytes: Buffer.concat(chunks) })));
    // The deadline aborts a slow body too (the request's signal destroys the response).
    const cut = () => resolve(done(deadline.aborted ? timedOut(limits) : { ok: false, problem: 'unreachable', detail: 'the connection closed before the end of the answer' }));
    response.on('error', cut);
    response.on('close', () => {
      if (!response.complete) cut();
    });
  });
}

function timedOut(limits: FetchLimits): Download {
  return { ok: false, problem: 'timed out', detail: `no complete answer within ${limits.timeoutMs / 1000} s` };
}

/** Loopback, private, shared, link-local (cloud metadata), multicast and reserved ranges. */
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  internal.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  internal.addSubnet(net, prefix, 'ipv6');

/** BlockList checks an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) against the IPv4 ranges. */
function isInternal(address: string): boolean {
  return internal.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** `dns.lookup` that refuses a host with any internal address (checked on the address connected to, so DNS cannot switch it later). */
function publicLookup(hostname: string, options: object, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => isInternal(a.address));
    if (refused) return callback(Object.assign(new Error(`${hostname} resolves to the internal address ${refused.address}`), { code: 'EINTERNAL' }), []);
    if ((options as { all?: boolean }).all) return callback(null, addresses);
    const first = addresses[0];
    return first ? callback(null, first.address, first.family) : callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
  });
}
