/**
 * `/api/a2a`: the A2A agent (protocol 1.0, JSON-RPC binding) on the official SDK. Its
 * framework-agnostic `JsonRpcTransportHandler` is driven here the way the SDK's Express adapter
 * drives it (`@a2a-js/sdk/server/express`, `jsonRpcHandler`): the same call context (requested
 * version from `A2A-Version`, absent meaning 0.3; extensions from `A2A-Extensions`; no user),
 * the same version check against the card, the same statuses.
 *
 * Stateless like `/api/mcp`: each request gets a request handler over the current catalog and
 * an empty task store. The agent answers every message with a message, so no task outlives its
 * request and any instance answers any request.
 *
 * The body is read and checked first (http/json-rpc-body.ts): at most 64 KiB, one message, a
 * JSON-RPC error with 400 or 413 otherwise; a `Content-Type` other than JSON is 415. What the
 * SDK refuses (unknown method, unsupported version, streaming, bad params) is a JSON-RPC error
 * with 200, as its Express adapter answers; 500 only for a fault of this server, logged.
 */
import { AgentCard, A2A_VERSION_HEADER, Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, defaultServerCallContextBuilder, InMemoryTaskStore, JsonRpcTransportHandler, UnauthenticatedUser, validateVersion } from '@a2a-js/sdk/server';
import type { Deps } from '../deps.ts';
import { agentCard } from '../docs/discovery.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { jsonRpcError, readJsonRpcBody } from '../http/json-rpc-body.ts';
import { CatalogExecutor } from './executor.ts';

/** Bodies above this are refused with 413: a message asking for a search is a few hundred bytes. */
export const A2A_MAX_BODY_BYTES = 64 * 1024;

type JsonRpcAnswer = { jsonrpc: string; id: string | number | null; result?: unknown; error?: unknown };

/**
 * Answer one request to `/api/a2a`.
 * @example await handleA2a(new Request('http://x/api/a2a', { method: 'POST', headers: { 'A2A-Version': '1.0' }, body }), deps)
 */
export async function handleA2a(request: Request, deps: Pick<Deps, 'state' | 'searchGaps' | 'log'>): Promise<Response> {
  if (request.method !== 'POST') throw methodNotAllowed(request.method, ['POST', 'OPTIONS']);
  const type = request.headers.get('content-type');
  // The JSON-RPC binding is JSON; no Content-Type at all is let through, as the SDK does.
  if (type !== null && type.split(';', 1)[0]?.trim().toLowerCase() !== 'application/json') {
    return jsonRpcError(415, A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, `Unsupported Content-Type "${type}"; expected application/json.`);
  }
  const body = await readJsonRpcBody(request, {
    maxBytes: A2A_MAX_BODY_BYTES,
    tooLarge: `Request body too large: at most ${A2A_MAX_BODY_BYTES} bytes`,
    noBatch: 'JSON-RPC batches are not supported; send one message per request',
  });
  if (body instanceof Response) return body;
  const id = requestId(body.parsed);

  // One catalog for the whole request; the card is the one published at /.well-known/agent-card.json.
  const catalog = deps.state().catalog;
  const card = AgentCard.fromJSON(agentCard(catalog.site));
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new CatalogExecutor(catalog, (query, matches) => deps.searchGaps.note(query, matches)));
  const context = defaultServerCallContextBuilder({
    extensions: Extensions.parseServiceParameter(request.headers.get(HTTP_EXTENSION_HEADER) ?? undefined),
    user: new UnauthenticatedUser(),
    headers: Object.fromEntries(request.headers),
    requestedVersion: request.headers.get(A2A_VERSION_HEADER) || undefined,
  });
  let answer: JsonRpcAnswer | AsyncGenerator<JsonRpcAnswer, void, undefined>;
  try {
    validateVersion(context.requestedVersion, card, 'JSONRPC');
    answer = await new JsonRpcTransportHandler(handler).handle(body.parsed as Record<string, unknown>, context);
  } catch (error) {
    answer = { jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
  }
  if (Symbol.asyncIterator in answer) return streamed(answer, id);
  const code = (answer.error as { code?: number } | undefined)?.code;
  if (code === A2A_ERROR_CODE.INTERNAL_ERROR) deps.log.error('a2a_internal_error', { id, error: answer.error });
  return Response.json(answer, { status: code === A2A_ERROR_CODE.INTERNAL_ERROR ? 500 : 200 });
}

// --- internal ---

/** The request's id, for errors answered outside the SDK (`null` when it has none). */
function requestId(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * A streaming method's answer. The card says `streaming: false`, so the SDK refuses
 * `SendStreamingMessage` before the first event (and `SubscribeToTask` finds no task): that
 * refusal is a plain JSON-RPC error, as the Express adapter sends it. Were a stream ever to
 * yield, its events go out as server-sent events.
 */
async function streamed(stream: AsyncGenerator<JsonRpcAnswer, void, undefined>, id: string | number | null): Promise<Response> {
  let first: IteratorResult<JsonRpcAnswer, void>;
  try {
    first = await stream.next();
  } catch (error) {
    return Response.json({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
  }
  const encoder = new TextEncoder();
  const event = (value: unknown, name?: string) => encoder.encode(`${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(value)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        if (!first.done) controller.enqueue(event(first.value));
        for await (const next of stream) controller.enqueue(event(next));
      } catch (error) {
        controller.enqueue(event({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) }, 'error'));
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } });
}
