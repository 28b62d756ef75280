/**
 * `/api/mcp`: the MCP server over Streamable HTTP, stateless (any instance answers any
 * request), JSON responses. A stateless transport serves exactly one request, so each POST gets
 * a fresh server and transport. GET (which would open an endless SSE stream) and DELETE
 * answer 405 with `Allow: POST, OPTIONS`: the router lists only POST for this route, so they
 * never get here; the check below keeps that true if the handler is ever reached another way.
 *
 * The body is read and checked here, and the SDK gets the parsed message (issue 11: left to the
 * SDK, a body could be 4 MiB, nested without limit, and a batch of 100 messages for one
 * rate-limit point): at most 64 KiB, nesting counted on the raw text before any parse, one
 * message per request. The SDK still checks the headers (406 Accept, 415 Content-Type), the
 * message's shape and the protocol version; a request wrong in both ways gets the body's
 * refusal first. Refusals are JSON-RPC errors with the SDK's own statuses and codes.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { Deps } from '../deps.ts';
import { ApiError, methodNotAllowed } from '../http/errors.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH, readRawBody } from '../http/request-body.ts';
import { buildMcpServer } from './tools.ts';

export const MCP_SERVER_VERSION = '1.0.0';

/** Bodies above this are refused with 413: an MCP message is a few hundred bytes (the SDK's default is 4 MiB). */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/**
 * Answer one request to `/api/mcp`.
 * @example await handleMcp(new Request('http://x/api/mcp', { method: 'POST', headers, body }), deps)
 */
export async function handleMcp(request: Request, deps: Pick<Deps, 'state' | 'searchGaps'>, documentText: (path: string, catalog: Catalog) => string): Promise<Response> {
  if (request.method !== 'POST') throw methodNotAllowed(request.method, ['POST', 'OPTIONS']);
  const message = await readMessage(request);
  if (message instanceof Response) return message;
  // One catalog for the whole request: tools and resources answer from the same version.
  const catalog = deps.state().catalog;
  const server = buildMcpServer(
    catalog,
    MCP_SERVER_VERSION,
    (path) => documentText(path, catalog),
    (query, matches) => deps.searchGaps.note(query, matches),
  );
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: message.parsed });
  } finally {
    void transport.close();
    void server.close();
  }
}

// --- internal ---

/** The code the SDK transport gives its HTTP-level refusals (413, 406, 415): JSON-RPC's "server error" range. */
const SERVER_ERROR = -32000;

/** The one JSON-RPC message of a POST, parsed, or the response refusing the body. */
async function readMessage(request: Request): Promise<{ parsed: unknown } | Response> {
  let text: string;
  try {
    // Reads no further than the limit, whether or not Content-Length announced more.
    text = (await readRawBody(request, MCP_MAX_BODY_BYTES)).toString('utf8');
  } catch (thrown) {
    if (!(thrown instanceof ApiError)) throw thrown;
    if (thrown.status === 413) return jsonRpcError(413, SERVER_ERROR, requestBodyTooLargeMessage(MCP_MAX_BODY_BYTES));
    return jsonRpcError(400, ErrorCode.ParseError, `Parse error: ${thrown.message}`);
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    return jsonRpcError(400, ErrorCode.InvalidRequest, `Invalid Request: the body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return jsonRpcError(400, ErrorCode.ParseError, 'Parse error: Invalid JSON');
  }
  // MCP 2025-06-18 removed JSON-RPC batching; a batch would also be many messages for one rate-limit point.
  if (Array.isArray(parsed)) {
    return jsonRpcError(400, ErrorCode.InvalidRequest, 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request');
  }
  return { parsed };
}

/** A JSON-RPC error response shaped as the SDK transport makes its own (`id: null`: no request was read). */
function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json' } });
}
