/**
 * One GET of one URL for the link checker, bounded: a deadline for the whole exchange (body
 * included), at most `maxBytes` of an HTML or text body read (the words that matter are at the
 * top), redirects not followed here (probe.ts follows and records them). GET, not HEAD: many
 * servers answer HEAD differently from what a browser gets, or not at all.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { destinationOf, type ResolveMap } from './resolve-map.ts';

export interface RequestOptions {
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  resolve: ResolveMap;
}

/** What one request got: an answer (headers and, for a readable page, its start), or why none came. */
export type Exchange =
  | { kind: 'answer'; status: number; location: string | undefined; retryAfter: string | undefined; body: string | undefined }
  | { kind: 'failure'; failure: 'timeout' | 'tls' | 'error'; detail: string; retryable: boolean };

/**
 * @example const exchange = await getOnce(new URL('https://aws.amazon.com/activate/'), { userAgent, timeoutMs: 10_000, maxBytes: 512 * 1024, resolve: new Map() });
 */
export function getOnce(url: URL, options: RequestOptions): Promise<Exchange> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const destination = destinationOf(options.resolve, url);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Exchange>((resolve) => {
    const request = send(
      {
        protocol: url.protocol,
        host: destination?.address ?? hostname,
        port: destination?.port ?? (url.port || undefined),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // The link's own name for SNI and the certificate check, wherever the connection goes.
        servername: isIP(hostname) ? undefined : hostname,
        // One connection per request: nothing left open between a run's requests.
        agent: false,
        signal: deadline,
        headers: {
          Host: url.host,
          'User-Agent': options.userAgent,
          Accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8',
          'Accept-Language': 'en',
        },
      },
      (response) => void readAnswer(response, options.maxBytes).then(resolve, (error: NodeJS.ErrnoException) => resolve(failureOf(error, deadline, options.timeoutMs))),
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve(failureOf(error, deadline, options.timeoutMs)));
    request.end();
    // A request Node refuses to send (a header it will not write) is a failure of this link, not of the run.
  }).catch((error: NodeJS.ErrnoException) => failureOf(error, deadline, options.timeoutMs));
}

// --- internal ---

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function readAnswer(response: IncomingMessage, maxBytes: number): Promise<Exchange> {
  const status = response.statusCode ?? 0;
  const header = (name: string) => [response.headers[name]].flat()[0];
  const answer = { kind: 'answer' as const, status, location: REDIRECTS.has(status) ? header('location') : undefined, retryAfter: header('retry-after') };
  const type = header('content-type') ?? '';
  if (status < 200 || status > 299 || !(type === '' || /html|text\/plain/i.test(type))) {
    response.destroy();
    return { ...answer, body: undefined };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= maxBytes) break;
  }
  response.destroy();
  return { ...answer, body: decoderFor(type).decode(Buffer.concat(chunks).subarray(0, maxBytes)) };
}

/** The page's declared character set, UTF-8 when it names none or one the platform lacks. */
function decoderFor(contentType: string): TextDecoder {
  try {
    return new TextDecoder(/charset="?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8');
  } catch {
    return new TextDecoder();
  }
}

/** Node's error codes in words, and whether trying again may help. */
function failureOf(error: NodeJS.ErrnoException, deadline: AbortSignal, timeoutMs: number): Exchange {
  const code = error.code ?? '';
  if (deadline.aborted) return { kind: 'failure', failure: 'timeout', detail: `no answer within ${timeoutMs / 1000} s`, retryable: true };
  if (/CERT|SSL|TLS|EPROTO|HOSTNAME_MISMATCH/.test(code)) return { kind: 'failure', failure: 'tls', detail: `TLS failure: ${error.message} (${code})`, retryable: false };
  const words = NETWORK_ERRORS[code];
  if (words) return { kind: 'failure', failure: 'error', detail: `${words[0]} (${code})`, retryable: words[1] };
  return { kind: 'failure', failure: 'error', detail: `${error.message}${code ? ` (${code})` : ''}`, retryable: false };
}

const NETWORK_ERRORS: Record<string, [string, boolean]> = {
  ECONNREFUSED: ['connection refused', false],
  ENOTFOUND: ['no such host (DNS)', false],
  EAI_AGAIN: ['DNS lookup failed for now', true],
  ECONNRESET: ['connection reset', true],
  EPIPE: ['connection closed while sending', true],
  EHOSTUNREACH: ['host unreachable', false],
  ENETUNREACH: ['network unreachable', false],
};
