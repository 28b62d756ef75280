/**
 * `/api/mcp` does not amplify small requests (issue 11, item 2), on the real server with the
 * official SDK client: the body is read and checked before the SDK sees it (64 KiB, nesting
 * counted on the raw text before any parse), JSON-RPC batches are refused (MCP 2025-06-18
 * removed them; each one was a hundred messages for the price of one rate-limit point), and
 * resource reads come from the documents' per-catalog-version cache instead of a fresh render.
 * Refusals are JSON-RPC error objects with the status the SDK itself uses for its own.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { documentCacheCounts } from '../../functions/docs/document-cache.ts';
import { MAX_JSON_DEPTH } from '../../functions/http/request-body.ts';
import { MCP_MAX_BODY_BYTES } from '../../functions/mcp/handler.ts';
import { expectErrorBody } from '../helpers/api-schemas.ts';
import { connectMcp, fetchText, fixtureSite, siteUrl, startAgentsServer, type AgentsServer } from '../helpers/agents-support.ts';
import { upload } from '../helpers/upload.ts';

let server: AgentsServer;
let client: Client;

beforeAll(async () => {
  server = await startAgentsServer();
  ({ client } = await connectMcp(server.url, 'limits-test'));
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});
afterEach(() => {
  expect(server.errors.splice(0)).toEqual([]);
});

interface JsonRpcError {
  jsonrpc: string;
  id: unknown;
  error: { code: number; message: string };
}

/** The headers a Streamable HTTP client sends. */
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION };

/** A POST of raw text to /api/mcp. */
async function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, text };
}

/** The body of a refusal: one JSON-RPC error object with `id: null`, as the SDK sends. */
function expectJsonRpcError(text: string): JsonRpcError {
  const body = JSON.parse(text) as JsonRpcError;
  expect(Object.keys(body).sort()).toEqual(['error', 'id', 'jsonrpc']);
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBeNull();
  expect(Number.isInteger(body.error.code)).toBe(true);
  return body;
}

/** A valid `ping` whose `_meta` pads the body to about `bytes`. */
const paddedPing = (bytes: number) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: 'x'.repeat(bytes - 70) } } });

describe('body size', () => {
  test('a valid message over the limit is 413 and never reaches the SDK (it would have answered the ping)', async () => {
    // Sent in one piece: the server answers from Content-Length and reads none of it.
    const answer = await upload(`${server.url}/api/mcp`, MCP_HEADERS, [Buffer.from(paddedPing(MCP_MAX_BODY_BYTES + 1024))], true);
    expect(answer.status, answer.closed ?? answer.text.slice(0, 200)).toBe(413);
    expect(expectJsonRpcError(answer.text).error).toEqual({ code: -32000, message: `Payload Too Large: Request body must not exceed ${MCP_MAX_BODY_BYTES} bytes` });
  });

  test('the limit holds without a Content-Length too (a streamed body is cut off at the limit)', async () => {
    // 4 MiB offered, 16 KiB at a time: the server must answer long before the end.
    const answer = await upload(
      `${server.url}/api/mcp`,
      MCP_HEADERS,
      Array.from({ length: 256 }, () => Buffer.alloc(16 * 1024, ' ')),
      false,
    );
    expect(answer.status, answer.closed).toBe(413);
    expect(answer.ms).toBeLessThan(5000);
    expect(expectJsonRpcError(answer.text).error.code).toBe(-32000);
  });

  test('a message just under the limit is answered', async () => {
    const answer = await post(paddedPing(MCP_MAX_BODY_BYTES - 1024));
    expect(answer.status, answer.text.slice(0, 200)).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});

describe('nesting', () => {
  test('60,000 unclosed `[` (under the size limit) are 400 with the depth error, not the parse error, and fast', async () => {
    const answer = await post('['.repeat(60_000));
    expect(answer.status).toBe(400);
    expect(expectJsonRpcError(answer.text).error).toEqual({ code: -32600, message: `Invalid Request: the body nests deeper than ${MAX_JSON_DEPTH} levels` });
    expect(answer.ms).toBeLessThan(1000);
    // 100,000 of them are over the size limit: refused before even the scan.
    expect((await post('['.repeat(100_000))).status).toBe(413);
  });

  test('a valid message nested one level past the limit is refused; at the limit it is answered', async () => {
    // The envelope and params/_meta take 3 levels; the rest is the nested value.
    const ping = (depth: number) => `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"a":${'['.repeat(depth - 3)}${']'.repeat(depth - 3)}}}}`;
    const refused = await post(ping(MAX_JSON_DEPTH + 1));
    expect(refused.status).toBe(400);
    expect(expectJsonRpcError(refused.text).error.code).toBe(-32600);
    const answered = await post(ping(MAX_JSON_DEPTH));
    expect(answered.status, answered.text).toBe(200);
  });

  test('malformed JSON is 400 Parse error, as the SDK answers it', async () => {
    for (const body of ['{"jsonrpc":', '', 'not json']) {
      const answer = await post(body);
      expect(answer.status, body).toBe(400);
      expect(expectJsonRpcError(answer.text).error, body).toEqual({ code: -32700, message: 'Parse error: Invalid JSON' });
    }
  });
});

describe('batches', () => {
  test('a JSON-RPC batch is 400 Invalid Request and none of its messages is answered', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_deals', arguments: { limit: 1 } } },
    ];
    for (const body of [batch, batch.slice(0, 1), []]) {
      const answer = await post(JSON.stringify(body));
      expect(answer.status, answer.text).toBe(400);
      const { error } = expectJsonRpcError(answer.text);
      expect(error.code).toBe(-32600);
      expect(error.message).toBe('Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request');
    }
  });
});

describe('headers the SDK checks still apply to a body read here', () => {
  test('406 without the right Accept, 415 without a JSON Content-Type', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((await post(ping, { Accept: 'application/json' })).status).toBe(406);
    expect((await post(ping, { 'Content-Type': 'text/plain' })).status).toBe(415);
  });
});

describe('resources come from the documents cache', () => {
  const site = fixtureSite();

  test('after GET /llms-full.txt, MCP reads of it render nothing and give the same text', async () => {
    const http = await fetchText(`${server.url}/llms-full.txt`);
    expect(http.status).toBe(200);
    const before = documentCacheCounts();
    for (let i = 0; i < 2; i++) {
      const { contents } = await client.readResource({ uri: siteUrl(site, '/llms-full.txt') });
      expect((contents[0] as { text?: string }).text).toBe(http.text);
    }
    const after = documentCacheCounts();
    expect(after.renders).toBe(before.renders);
    expect(after.hits - before.hits).toBe(2);
  });
});

describe('the REST body reader shares the pre-scan', () => {
  test('POST /api/v1/submit-deal with 120,000 nested arrays (240 KB) is 400 bad_request naming the depth', async () => {
    const response = await fetch(`${server.url}/api/v1/submit-deal`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `${'['.repeat(120_000)}${']'.repeat(120_000)}`,
    });
    expect(response.status).toBe(400);
    const error = expectErrorBody(await response.json());
    expect(error.code).toBe('bad_request');
    expect(error.error).toBe(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  });
});
