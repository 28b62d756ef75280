/**
 * `/api/mcp`: the MCP server over Streamable HTTP, stateless (any instance answers any
 * request), JSON responses. A stateless transport serves exactly one request, so each POST gets
 * a fresh server and transport. GET (which would open an endless SSE stream) and DELETE
 * answer 405 with `Allow: POST, OPTIONS`: the router lists only POST for this route, so they
 * never get here; the check below keeps that true if the handler is ever reached another way.
 *
 * The body is read and checked here (http/json-rpc-body.ts), and the SDK gets the parsed
 * message: at most 64 KiB (the SDK's default is 4 MiB), one message per request. The SDK still
 * checks the headers (406 Accept, 415 Content-Type), the message's shape and the protocol version; a request wrong in both ways gets the body's
 * refusal first. Refusals are JSON-RPC errors with the SDK's own statuses and codes.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { Deps } from '../deps.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { readJsonRpcBody } from '../http/json-rpc-body.ts';
import { readChanges, type ChangesDeps } from '../reads/changes.ts';
import { buildMcpServer } from './tools.ts';

export const MCP_SERVER_VERSION = '1.0.0';

/** Bodies above this are refused with 413: an MCP message is a few hundred bytes (the SDK's default is 4 MiB). */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/**
 * Answer one request to `/api/mcp`.
 * @example await handleMcp(new Request('http://x/api/mcp', { method: 'POST', headers, body }), deps)
 */
export async function handleMcp(request: Request, deps: Pick<Deps, 'searchGaps'> & ChangesDeps, documentText: (path: string, catalog: Catalog) => string): Promise<Response> {
  if (request.method !== 'POST') throw methodNotAllowed(request.method, ['POST', 'OPTIONS']);
  const message = await readJsonRpcBody(request, {
    maxBytes: MCP_MAX_BODY_BYTES,
    tooLarge: requestBodyTooLargeMessage(MCP_MAX_BODY_BYTES),
    // MCP 2025-06-18 removed JSON-RPC batching; a batch would also be many messages for one rate-limit point.
    noBatch: 'JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request',
  });
  if (message instanceof Response) return message;
  // One catalog for the whole request: tools and resources answer from the same version.
  const catalog = deps.state().catalog;
  const server = buildMcpServer(catalog, MCP_SERVER_VERSION, {
    documentText: (path) => documentText(path, catalog),
    searched: (query, matches) => deps.searchGaps.note(query, matches),
    changes: (query) => readChanges(deps, query),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: message.parsed });
  } finally {
    void transport.close();
    void server.close();
  }
}
