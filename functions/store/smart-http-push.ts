/**
 * One commit pushed over git's smart HTTP protocol, sending exactly the objects the store wrote.
 * isomorphic-git's own push works out what to send by walking every tree of the old and new
 * commits (most of a second per push on a folder of 5,000 files); the store already knows.
 * Two requests, as git makes them: the ref advertisement (credentials checked, and whether the
 * branch is still at the commit the new one was made on: if not, no pack is sent), then
 * receive-pack with the command (old and new id: the host moves the branch only if it is still
 * at the old one) and a pack of the new objects.
 */
import type { HttpClient } from 'isomorphic-git';

export interface SmartHttpRemote {
  /** The repository's URL (no trailing slash). */
  url: string;
  http: HttpClient;
  /** Headers for each request (auth); a new object each time. */
  headers: () => Record<string, string>;
}

/**
 * Move `ref` on the remote from `from` to `to`, sending `pack()`. Resolves undefined when the
 * remote took it, or with its reason when it refused (moved meanwhile, a lock, a hook); rejects
 * when it cannot be asked (the error's `data.statusCode` set for an HTTP status).
 */
export async function pushCommit(remote: SmartHttpRemote, ref: string, from: string, to: string, pack: () => Promise<Uint8Array>): Promise<string | undefined> {
  const advertised = await call(remote, 'GET', 'info/refs?service=git-receive-pack', 'application/x-git-receive-pack-advertisement');
  let current: string | undefined;
  let capabilities: string[] = [];
  for (const line of pktLines(advertised)) {
    if (line.startsWith('#')) continue;
    const [head = '', caps] = line.split('\0');
    if (caps !== undefined) capabilities = caps.trim().split(' ');
    const [oid, name] = head.trim().split(' ');
    if (name === ref) current = oid;
  }
  if (current !== from) return current === undefined ? `the remote has no ${ref}` : 'the branch moved (fetch first)';
  if (!capabilities.includes('report-status')) throw new Error('the remote does not report push results (no report-status)');
  const body = [pktLine(`${from} ${to} ${ref}\0report-status agent=deals-catalog\n`), new TextEncoder().encode('0000'), await pack()];
  const answer = pktLines(await call(remote, 'POST', 'git-receive-pack', 'application/x-git-receive-pack-result', body));
  if (answer[0]?.trim() !== 'unpack ok') throw new Error(`the remote could not take the pack: ${answer[0]?.trim() ?? 'no answer'}`);
  const status = answer.find((line) => line.startsWith(`ok ${ref}`) || line.startsWith(`ng ${ref}`));
  if (status?.startsWith('ok ')) return undefined;
  return status?.slice(3 + ref.length).trim() || 'refused';
}

// --- internal ---

async function call(remote: SmartHttpRemote, method: 'GET' | 'POST', path: string, expected: string, body?: Uint8Array[]): Promise<Uint8Array> {
  const headers: Record<string, string> = { ...remote.headers(), Accept: expected };
  if (body) headers['Content-Type'] = 'application/x-git-receive-pack-request';
  // An array, as isomorphic-git itself passes: its HTTP clients send it as one buffer with a Content-Length.
  const payload = body ? { body: body as unknown as AsyncIterableIterator<Uint8Array> } : {};
  const response = await remote.http.request({ url: `${remote.url}/${path}`, method, headers, ...payload });
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body ?? []) chunks.push(chunk);
  if (response.statusCode !== 200) throw Object.assign(new Error(`HTTP Error: ${response.statusCode} ${response.statusMessage}`), { code: 'HttpError', data: { statusCode: response.statusCode } });
  if (response.headers?.['content-type'] !== expected) throw new Error(`the remote answered ${response.headers?.['content-type'] ?? 'no content type'}, not git's smart HTTP`);
  return Buffer.concat(chunks);
}

function pktLine(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  return Buffer.concat([new TextEncoder().encode((bytes.length + 4).toString(16).padStart(4, '0')), bytes]);
}

/** The lines of a pkt-line stream (flush packets left out). */
function pktLines(bytes: Uint8Array): string[] {
  const lines: string[] = [];
  const text = Buffer.from(bytes);
  for (let at = 0; at + 4 <= text.length;) {
    const length = Number.parseInt(text.subarray(at, at + 4).toString('latin1'), 16);
    if (!Number.isFinite(length) || length < 0) break;
    if (length === 0) {
      at += 4;
      continue;
    }
    lines.push(text.subarray(at + 4, at + length).toString('utf8'));
    at += length;
  }
  return lines;
}
