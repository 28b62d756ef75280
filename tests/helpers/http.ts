/**
 * HTTP helpers for integration tests. `fetch` decodes content codings on its own, so tests
 * that look at raw bytes or exact headers use `node:http` through `rawRequest`.
 */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent on the wire (still compressed, if they were). */
  body: Buffer;
}

/**
 * One request over `node:http` with no automatic decoding.
 * @example await rawRequest(server.url, 'GET', '/api/v1/deals', { 'accept-encoding': 'br' })
 */
export function rawRequest(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Status, headers and parsed JSON body of a GET (or other method) through `fetch`. */
export async function getJson(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}
