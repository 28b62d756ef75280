/**
 * The A2A agent at `/api/a2a` (issue 20, item 5), driven by the official A2A SDK's own client
 * (`ClientFactory`, JSON-RPC transport) against the real server on the `valid` fixture: the
 * client reads the agent card, picks the card's interface and gets the right deals in one call;
 * every answer is checked against the JSON API (the same catalog functions must give the same
 * records). Raw HTTP checks the refusals: each a JSON-RPC error with a fitting status, never a
 * 500 or a stack.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { AgentCard, Role, type Message, type Part } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { expectDealList, expectStartupList } from '../helpers/api-schemas.ts';
import { fetchText, fixtureSite, onServer, parseJson, siteUrl, startAgentsServer, type AgentsServer } from '../helpers/agents-support.ts';

const site = fixtureSite();

let server: AgentsServer;
let client: Client;

/** The card names the published URL (the fixture's baseUrl): the SDK's requests go to the test server instead. */
const toServer: typeof fetch = (input, init) => fetch(onServer(server, input instanceof Request ? input.url : String(input)), init);

beforeAll(async () => {
  server = await startAgentsServer();
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: toServer })] }));
  client = await factory.createFromUrl(server.url);
});
afterAll(async () => {
  await server?.stop();
});
afterEach(() => {
  expect(server.errors.splice(0)).toEqual([]);
});

function userMessage(...parts: ({ text: string } | { data: Record<string, unknown> })[]): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: parts.map((p): Part => ({ content: 'text' in p ? { $case: 'text', value: p.text } : { $case: 'data', value: p.data }, metadata: undefined, filename: '', mediaType: '' })),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

interface Answer {
  text: string;
  data: Record<string, unknown>;
}

/** One `SendMessage` through the SDK client: the answer must be a message (never a task) with a text part and a data part. */
async function ask(...parts: Parameters<typeof userMessage>): Promise<Answer> {
  const result = await client.sendMessage({ tenant: '', message: userMessage(...parts), configuration: undefined, metadata: undefined });
  expect('messageId' in result, JSON.stringify(result)).toBe(true);
  const message = result as Message;
  expect(message.role).toBe(Role.ROLE_AGENT);
  const text = message.parts.find((p) => p.content?.$case === 'text')?.content?.value as string | undefined;
  const data = message.parts.find((p) => p.content?.$case === 'data')?.content?.value as Record<string, unknown> | undefined;
  expect(text).toBeTypeOf('string');
  expect(data).toBeTypeOf('object');
  return { text: text as string, data: data as Record<string, unknown> };
}

const api = async (path: string) => {
  const { status, text } = await fetchText(`${server.url}${path}`);
  expect(status, path).toBe(200);
  return parseJson(text);
};

/** `value` without empty arrays and objects, at any depth. */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value === null || typeof value !== 'object') return value;
  const kept = Object.entries(value).filter(([, v]) => !(Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0));
  return Object.fromEntries(kept.map(([k, v]) => [k, withoutEmpty(v)]));
}

/** A raw JSON-RPC POST, as a client without the SDK would send it. */
async function rawA2a(body: string, headers: Record<string, string> = {}, method = 'POST') {
  const response = await fetch(`${server.url}/api/a2a`, { method, headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0', ...headers }, body: method === 'POST' ? body : undefined });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: parseJson(text) as { jsonrpc?: string; id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } },
  };
}

const sendMessage = (id: number, parts: unknown[], method = 'SendMessage') => JSON.stringify({ jsonrpc: '2.0', id, method, params: { message: { messageId: `m-${id}`, role: 'ROLE_USER', parts } } });

describe('the agent card, as the SDK reads it', () => {
  test('the SDK resolver accepts it; it round-trips through the SDK AgentCard type unchanged; its one interface is the JSON-RPC endpoint, protocol 1.0', async () => {
    const raw = parseJson((await fetchText(`${server.url}/.well-known/agent-card.json`)).text) as Record<string, unknown>;
    // ProtoJSON leaves out empty lists and maps; everything else must survive the SDK's own parse.
    expect(AgentCard.toJSON(AgentCard.fromJSON(raw))).toEqual(withoutEmpty(raw));
    const card = await new DefaultAgentCardResolver().resolve(server.url);
    expect(card.supportedInterfaces).toEqual([{ url: siteUrl(site, '/api/a2a'), protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]);
    expect(card.capabilities?.streaming).toBe(false);
    expect(card.capabilities?.pushNotifications).toBe(false);
    expect(card.skills.map((s) => s.id)).toEqual(['search_deals', 'search_startups', 'submit_deal']);
    expect(card.description).not.toMatch(/not offered/i);
  });
});

describe('SendMessage through the SDK client', () => {
  test('"cloud credits for a pre-seed startup" in one call: a cloud-credits deal first, the same deals as the API', async () => {
    const { text, data } = await ask({ text: 'cloud credits for a pre-seed startup' });
    const deals = data.deals as { slug: string; category: string }[];
    expect(data.skill).toBe('search_deals');
    expect(deals.length).toBeGreaterThan(0);
    expect(deals.length).toBeLessThanOrEqual(10);
    expect(deals[0]?.category).toBe('cloud-credits');
    // The API's list items, in the API's order (agents search deals and programs together: scope=all).
    const list = expectDealList(await api(`/api/v1/deals?search=${encodeURIComponent('cloud credits for a pre-seed startup')}&scope=all&limit=10`));
    expect(deals).toEqual(list.deals);
    expect(data.total).toBe(list.stats.total);
    expect(data.count).toBe(deals.length);
    expect(text).toContain(`${list.stats.total} matching deal(s)`);
    for (const deal of deals) expect(text).toContain(siteUrl(site, `/deals/${deal.slug}/`));
  });

  test('a data part of filters, named as the API names them, is read by the API parameter table', async () => {
    const { data } = await ask({ data: { category: 'cloud-credits', limit: 2, sort: 'value' } });
    const list = expectDealList(await api('/api/v1/deals?category=cloud-credits&limit=2&sort=value&scope=all'));
    expect(data.deals).toEqual(list.deals);
    expect((data.deals as unknown[]).length).toBe(2);
    expect(data.total).toBe(list.stats.total);
  });

  test('text and a data part together: the text is the search, the data filters it', async () => {
    const { data } = await ask({ text: 'credits' }, { data: { category: 'cloud-credits' } });
    const list = expectDealList(await api('/api/v1/deals?search=credits&category=cloud-credits&scope=all&limit=10'));
    expect(data.deals).toEqual(list.deals);
    expect(list.deals.length).toBeGreaterThan(0);
  });

  test('a slug in the data part answers that one deal, description included', async () => {
    const { data } = await ask({ data: { slug: 'aws-activate' } });
    const one = (await api('/api/v1/deals?slug=aws-activate')) as { deal: unknown };
    expect(data.deals).toEqual([one.deal]);
  });

  test('search_startups: a data part naming the skill, and a text starting with "startups:", answer what GET /api/v1/startups answers', async () => {
    const byData = await ask({ data: { skill: 'search_startups', category: 'saas', minRevenue: 100000 } });
    const list = expectStartupList(await api('/api/v1/startups?category=saas&minRevenue=100000'));
    expect(list.startups.length).toBeGreaterThan(0);
    expect(byData.data.skill).toBe('search_startups');
    expect(byData.data.startups).toEqual(list.startups);
    expect(byData.data.total).toBe(list.total);

    const byText = await ask({ text: 'startups: saas' });
    const searched = expectStartupList(await api('/api/v1/startups?search=saas'));
    expect(byText.data.startups).toEqual(searched.startups.slice(0, 10));
    expect(byText.text).toContain(`${searched.total} matching listing(s)`);
  });

  test('a filter the API refuses is refused in the answer, with the allowed values; an unknown skill too', async () => {
    const bad = await ask({ data: { status: 'nope' } });
    expect(bad.text).toMatch(/^status: expected one of active, expired, coming-soon, limited, all/);
    expect(bad.data).toMatchObject({ parameter: 'status' });
    const skill = await ask({ data: { skill: 'submit_deal' } });
    expect(skill.text).toMatch(/skill: expected one of search_deals, search_startups/);
  });

  test('nothing found: the answer says what was searched and suggests categories', async () => {
    const { text, data } = await ask({ text: 'zzqqxx nothing like this' });
    expect(data).toMatchObject({ total: 0, count: 0, deals: [] });
    expect(text).toMatch(/zzqqxx/);
  });
});

describe('streaming is not offered, and says so the SDK way', () => {
  test('the SDK transport asked to stream gets the unsupported-operation error', async () => {
    const card = await new DefaultAgentCardResolver().resolve(server.url);
    const transport = await new JsonRpcTransportFactory({ fetchImpl: toServer }).create(siteUrl(site, '/api/a2a'), card);
    const stream = transport.sendMessageStream(
      { tenant: '', message: userMessage({ text: 'aws' }), configuration: undefined, metadata: undefined },
      // The bare transport sends no version; the Client adds this header itself.
      { serviceParameters: { 'A2A-Version': '1.0' } },
    );
    await expect(stream.next()).rejects.toMatchObject({ name: 'UnsupportedOperationError' });
  });

  test('raw SendStreamingMessage: a JSON-RPC error -32004 (200, JSON, no event stream)', async () => {
    const answer = await rawA2a(sendMessage(7, [{ text: 'aws' }], 'SendStreamingMessage'), { Accept: 'text/event-stream' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: A2A_ERROR_CODE.UNSUPPORTED_OPERATION } });
  });
});

describe('raw HTTP on /api/a2a: refusals are JSON, never a 500', () => {
  test('a raw SendMessage works without the SDK, and is limited by the "a2a" policy', async () => {
    const answer = await rawA2a(sendMessage(1, [{ text: 'aws' }]));
    expect(answer.status).toBe(200);
    expect(answer.json.id).toBe(1);
    expect(answer.json.result?.message).toMatchObject({ role: 'ROLE_AGENT' });
    expect(answer.headers.get('ratelimit-policy')).toMatch(/^"a2a";/);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('malformed JSON: 400, -32700', async () => {
    const answer = await rawA2a('{"jsonrpc": "2.0", "method": ');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  test("a batch: 400, -32600; an invalid request object: 200 with the SDK's RequestMalformedError (-32602)", async () => {
    const batch = await rawA2a(`[${sendMessage(1, [{ text: 'aws' }])}]`);
    expect(batch.status).toBe(400);
    expect(batch.json.error?.code).toBe(-32600);
    const invalid = await rawA2a(JSON.stringify({ jsonrpc: '1.0', id: 3, method: 'SendMessage' }));
    expect(invalid.status).toBe(200);
    expect(invalid.json.error?.code).toBe(A2A_ERROR_CODE.INVALID_PARAMS);
  });

  test('too large: 413 with a JSON-RPC error', async () => {
    const answer = await rawA2a(sendMessage(1, [{ text: 'x'.repeat(70 * 1024) }]));
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });

  test('a Content-Type other than JSON: 415, -32005', async () => {
    const answer = await rawA2a(sendMessage(1, [{ text: 'aws' }]), { 'Content-Type': 'text/plain' });
    expect(answer.status).toBe(415);
    expect(answer.json.error?.code).toBe(A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED);
  });

  test('GET, PUT and DELETE: 405 with Allow naming POST, as the JSON error object', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await rawA2a('', {}, method);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow'), method).toBe('POST, OPTIONS');
      expect(answer.json, method).toMatchObject({ success: false, code: 'method_not_allowed' });
    }
  });

  test('an unknown method: -32601; no A2A-Version header (0.3) or another version: -32009', async () => {
    expect((await rawA2a(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'message/send', params: {} }))).json.error?.code).toBe(A2A_ERROR_CODE.METHOD_NOT_FOUND);
    for (const version of ['', '0.3', '2.0']) {
      const answer = await rawA2a(sendMessage(5, [{ text: 'aws' }]), { 'A2A-Version': version });
      expect(answer.status, version).toBe(200);
      expect(answer.json, version).toMatchObject({ id: 5, error: { code: A2A_ERROR_CODE.VERSION_NOT_SUPPORTED } });
    }
  });

  test('tasks and push notifications do not exist: their methods answer A2A errors', async () => {
    const get = await rawA2a(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'GetTask', params: { id: 'no-such-task' } }));
    expect(get.json.error?.code).toBe(A2A_ERROR_CODE.TASK_NOT_FOUND);
    const push = await rawA2a(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'CreateTaskPushNotificationConfig', params: { taskId: 't', url: 'https://example.com/hook' } }));
    expect(push.json.error?.code).toBe(A2A_ERROR_CODE.PUSH_NOTIFICATION_NOT_SUPPORTED);
  });

  test('the CORS preflight lets another origin send A2A-Version', async () => {
    const response = await fetch(`${server.url}/api/a2a`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, a2a-version' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/A2A-Version/);
  });
});
