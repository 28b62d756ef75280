/**
 * `/api/mcp`: the MCP server over Streamable HTTP, stateless (any instance answers any
 * request), JSON responses. A stateless transport serves exactly one request, so each POST gets
 * a fresh server and transport. GET (which would open an endless SSE stream) and DELETE
 * answer 405.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Deps } from '../deps.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { buildMcpServer } from './tools.ts';

export const MCP_SERVER_VERSION = '1.0.0';

export async function handleMcp(request: Request, deps: Deps): Promise<Response> {
  if (request.method !== 'POST') throw methodNotAllowed(request.method, ['POST', 'OPTIONS']);
  const server = buildMcpServer(deps.state().catalog, MCP_SERVER_VERSION);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request);
  } finally {
    void transport.close();
    void server.close();
  }
}
