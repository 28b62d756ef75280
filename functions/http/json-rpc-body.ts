/**
 * The body of a JSON-RPC endpoint (`/api/mcp`, `/api/a2a`), read and checked before any SDK
 * sees it (issue 11: left to an SDK, a body could be megabytes, nested without limit, or a batch
 * of many messages for one rate-limit point): a size limit, nesting counted on the raw text
 * before any parse, one message per request. Refusals are JSON-RPC error objects with `id: null`
 * (no request was read) and an HTTP status that says what went wrong.
 */
import { ApiError } from './errors.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH, readRawBody } from './request-body.ts';

/** JSON-RPC 2.0 codes of the refusals below; -32000 is the "server error" range an SDK uses for its HTTP-level refusals. */
export const JSON_RPC_CODES = { parseError: -32700, invalidRequest: -32600, serverError: -32000 } as const;

export interface JsonRpcBodyRules {
  maxBytes: number;
  /** The message of the 413 refusal. */
  tooLarge: string;
  /** The message of the refusal of a batch (an array of messages). */
  noBatch: string;
}

/**
 * The one JSON-RPC message of a POST, parsed, or the response refusing the body.
 * @example const message = await readJsonRpcBody(request, { maxBytes: 65536, tooLarge: 'Too large', noBatch: 'One message per request' })
 */
export async function readJsonRpcBody(request: Request, rules: JsonRpcBodyRules): Promise<{ parsed: unknown } | Response> {
  let text: string;
  try {
    // Reads no further than the limit, whether or not Content-Length announced more.
    text = (await readRawBody(request, rules.maxBytes)).toString('utf8');
  } catch (thrown) {
    if (!(thrown instanceof ApiError)) throw thrown;
    if (thrown.status === 413) return jsonRpcError(413, JSON_RPC_CODES.serverError, rules.tooLarge);
    return jsonRpcError(400, JSON_RPC_CODES.parseError, `Parse error: ${thrown.message}`);
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    return jsonRpcError(400, JSON_RPC_CODES.invalidRequest, `Invalid Request: the body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return jsonRpcError(400, JSON_RPC_CODES.parseError, 'Parse error: Invalid JSON');
  }
  if (Array.isArray(parsed)) return jsonRpcError(400, JSON_RPC_CODES.invalidRequest, `Invalid Request: ${rules.noBatch}`);
  return { parsed };
}

/** A JSON-RPC error response (`id: null` unless the request's id is known). */
export function jsonRpcError(status: number, code: number, message: string, id: string | number | null = null): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), { status, headers: { 'Content-Type': 'application/json' } });
}
