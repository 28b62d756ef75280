/**
 * GET /openapi.json (SPEC "Versioning" 6, "Endpoints", "Authentication" 2) and a contract test:
 * real responses of every documented operation, for every status the tests can provoke, are
 * validated with ajv (draft 2020-12, formats) against the schema the document itself gives for
 * that operation and status, and the requests the server accepts are validated against the
 * documented request bodies. Runs on the real server with real admin and member accounts.
 *
 * `#/components/...` references are resolved by adding the whole document to ajv under an
 * `$id` and compiling `{ $ref: <id>#<pointer to the schema> }`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ADMIN, MEMBER, call, callFrom, login, startWriteServer, takeErrors, uniqueWord, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';
import { fixtureSite, parseJson, strictAjv } from '../helpers/agents-support.ts';

type Json = Record<string, unknown>;
const DOC_ID = 'https://openapi.test/openapi.json';
const site = fixtureSite();

let env: WriteServer;
let doc: Json;
let docHeaders: Headers;
let ajv: Ajv2020;
let adminCookie: string;
let memberCookie: string;

beforeAll(async () => {
  env = await startWriteServer([ADMIN, MEMBER]);
  const response = await fetch(`${env.url}/openapi.json`);
  docHeaders = response.headers;
  expect(response.status).toBe(200);
  doc = parseJson(await response.text()) as Json;
  // Top-level OpenAPI keys are not JSON Schema keywords: declare them so strict mode accepts the
  // document as a container, while every schema compiled out of it stays strictly checked.
  ajv = strictAjv(Object.keys(doc).filter((k) => k !== '$id'));
  ajv.addSchema({ ...doc, $id: DOC_ID });
  [adminCookie, memberCookie] = await Promise.all([login(env.url, ADMIN), login(env.url, MEMBER)]);
});
afterAll(async () => {
  await env?.stop();
});
afterEach(() => {
  expect(takeErrors(env.server)).toEqual([]);
});

// --- reading the document ---

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Follow a JSON pointer (`#/a/b`) inside the document. */
function at(pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = (node as Json | undefined)?.[key];
  }
  return node;
}

interface Operation {
  path: string;
  method: string;
  op: Json;
  pointer: string;
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method)) continue;
      out.push({ path, method, op: op as Json, pointer: `#/paths/${escapePointer(path)}/${method}` });
    }
  }
  return out;
}

function operation(operationId: string): Operation {
  const found = operations().filter((o) => o.op.operationId === operationId);
  expect(found, `operationId ${operationId}`).toHaveLength(1);
  return found[0] as Operation;
}

/** Resolve `{ $ref }` objects (components/responses, headers, parameters) to [pointer, value]. */
function deref(pointer: string): [string, Json] {
  let current = pointer;
  for (let i = 0; i < 10; i++) {
    const node = at(current) as Json | undefined;
    if (node && typeof node.$ref === 'string') current = node.$ref;
    else return [current, node as Json];
  }
  throw new Error(`$ref loop at ${pointer}`);
}

const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
function validatorAt(pointer: string): ReturnType<Ajv2020['compile']> {
  let validate = compiled.get(pointer);
  if (!validate) {
    expect(at(pointer), `no schema at ${pointer}`).toBeDefined();
    validate = ajv.compile({ $ref: `${DOC_ID}${pointer}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

function expectValid(pointer: string, value: unknown, label: string): void {
  const validate = validatorAt(pointer);
  const ok = validate(value);
  expect(ok, `${label}: ${ajv.errorsText(validate.errors, { separator: '\n' })}\nvalue: ${JSON.stringify(value).slice(0, 600)}`).toBe(true);
}

/**
 * The contract: `result` is a response of `operationId`; its status is documented, its
 * media type is one the document lists, its body validates against that schema, and its
 * documented headers are present (API-Version, Allow, Retry-After) and match their schemas.
 */
function expectDocumented(operationId: string, result: JsonResult): void {
  const { op, pointer } = operation(operationId);
  const status = String(result.status);
  const responses = op.responses as Json;
  expect(Object.keys(responses), `${operationId}: status ${status} is not documented (body ${result.text.slice(0, 200)})`).toContain(status);
  const [responsePointer, response] = deref(`${pointer}/responses/${status}`);
  const label = `${operationId} ${status}`;
  const content = response.content as Record<string, Json> | undefined;
  if (!content) {
    expect(result.text, `${label}: documented without a body`).toBe('');
  } else {
    const mediaType = (result.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    expect(Object.keys(content), `${label}: media type ${mediaType}`).toContain(mediaType);
    expect(content[mediaType]?.schema, `${label}: no schema`).toBeDefined();
    expectValid(`${responsePointer}/content/${escapePointer(mediaType)}/schema`, result.body, label);
  }
  for (const name of Object.keys((response.headers as Json | undefined) ?? {})) {
    const [headerPointer, header] = deref(`${responsePointer}/headers/${escapePointer(name)}`);
    const value = result.headers.get(name);
    if (['api-version', 'allow', 'retry-after'].includes(name.toLowerCase())) expect(value, `${label}: header ${name}`).not.toBeNull();
    if (value === null || !header.schema) continue;
    const schema = header.schema as Json;
    const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
    expectValid(`${headerPointer}/schema`, typed, `${label} header ${name}`);
  }
}

/** The request body `body` (sent as `mediaType`) is allowed by the operation's documented request body. */
function expectRequestAllowed(operationId: string, body: unknown, mediaType = 'application/json'): void {
  const { pointer } = operation(operationId);
  const [requestPointer, request] = deref(`${pointer}/requestBody`);
  expect(Object.keys((request.content as Json | undefined) ?? {}), `${operationId} request media types`).toContain(mediaType);
  expectValid(`${requestPointer}/content/${escapePointer(mediaType)}/schema`, body, `${operationId} request`);
}

function expectRequestRejected(operationId: string, body: unknown): void {
  const { pointer } = operation(operationId);
  const [requestPointer] = deref(`${pointer}/requestBody`);
  const validate = validatorAt(`${requestPointer}/content/application~1json/schema`);
  expect(validate(body), `${operationId}: the documented schema accepts a body the server rejects: ${JSON.stringify(body)}`).toBe(false);
}

// --- the document ---

describe('the document', () => {
  test('200 application/json, OpenAPI 3.1.0, with info, servers and an api-catalog link', () => {
    expect(docHeaders.get('content-type')).toMatch(/^application\/json(;|$)/);
    expect(docHeaders.get('api-version')).toBe('v1');
    expect(doc.openapi).toBe('3.1.0');
    const info = doc.info as Json;
    expect(typeof info.title).toBe('string');
    expect(typeof info.version).toBe('string');
    const servers = doc.servers as { url: string }[];
    expect(servers.length).toBeGreaterThan(0);
    expect(new URL(servers[0]?.url ?? '').origin).toBe(new URL(site.baseUrl).origin);
  });

  test('x-api-versioning is the SPEC "Versioning" 6 policy', () => {
    const policy = doc['x-api-versioning'] as Json;
    expect(Object.keys(policy).sort()).toEqual(
      ['breakingChangePolicy', 'currentVersion', 'deprecationNoticeDays', 'deprecationSignals', 'policyUrl', 'supportedVersions', 'unversionedAliasesSupported', 'versionedBasePath'].sort(),
    );
    expect(policy.currentVersion).toBe('v1');
    expect(policy.supportedVersions).toEqual(['v1']);
    expect(policy.versionedBasePath).toBe('/api/v1');
    expect(policy.unversionedAliasesSupported).toBe(true);
    expect(policy.deprecationNoticeDays).toBe(180);
    const signals = policy.deprecationSignals as unknown[];
    expect(Array.isArray(signals)).toBe(true);
    const joined = signals.map(String).join('\n');
    for (const word of ['Deprecation', 'Sunset', 'deprecation', 'successor-version']) expect(joined).toContain(word);
    expect(typeof policy.breakingChangePolicy).toBe('string');
    expect((policy.breakingChangePolicy as string).length).toBeGreaterThan(20);
    expect(typeof policy.policyUrl).toBe('string');
    expect(new URL(policy.policyUrl as string).origin).toBe(new URL(site.baseUrl).origin);
  });

  test('operationIds are unique', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  const SPEC_OPERATIONS: { id: string; path: string; method: string; statuses: string[] }[] = [
    { id: 'listOrSearchDeals', path: '/api/v1/deals', method: 'get', statuses: ['200', '404', '500'] },
    { id: 'createDeal', path: '/api/v1/deals', method: 'post', statuses: ['200', '400', '401', '403', '500'] },
    { id: 'updateDeal', path: '/api/v1/deals', method: 'put', statuses: ['200', '400', '401', '403', '500'] },
    { id: 'deleteDeal', path: '/api/v1/deals', method: 'delete', statuses: ['200', '400', '401', '403', '500'] },
    { id: 'listStartups', path: '/api/v1/startups', method: 'get', statuses: ['200', '405', '500'] },
    { id: 'submitDeal', path: '/api/v1/submit-deal', method: 'post', statuses: ['201', '400', '405', '429', '500', '503'] },
  ];

  test.each(SPEC_OPERATIONS)('$id: $method $path with every SPEC status', ({ id, path, method, statuses }) => {
    const op = operation(id);
    expect(op.path).toBe(path);
    expect(op.method).toBe(method);
    expect(Object.keys(op.op.responses as Json)).toEqual(expect.arrayContaining(statuses));
    for (const status of Object.keys(op.op.responses as Json)) expect(status, id).toMatch(/^[1-5]\d\d$/);
  });

  /** Query parameters of an operation, by name, with their schema pointers. */
  function queryParams(id: string): Map<string, { param: Json; schemaPointer: string }> {
    const { op, pointer } = operation(id);
    const out = new Map<string, { param: Json; schemaPointer: string }>();
    ((op.parameters as unknown[] | undefined) ?? []).forEach((_, i) => {
      const [paramPointer, param] = deref(`${pointer}/parameters/${i}`);
      if (param.in === 'query') out.set(param.name as string, { param, schemaPointer: `${paramPointer}/schema` });
    });
    return out;
  }

  test('listOrSearchDeals: every SPEC query parameter, typed as the SPEC says', () => {
    const params = queryParams('listOrSearchDeals');
    // SPEC's parameters, plus the additive optional ones of issue 15 (`sort` and the program filters).
    expect([...params.keys()].sort()).toEqual(['category', 'featured', 'id', 'limit', 'recommended', 'scope', 'search', 'slug', 'status', 'sort', 'equity', 'stage', 'region'].sort());
    for (const { param } of params.values()) expect(param.required ?? false).toBe(false);
    const accepts = (name: string, value: unknown) => validatorAt(params.get(name)?.schemaPointer ?? '#/missing')(value);
    expect(['active', 'expired', 'coming-soon', 'limited', 'all'].every((s) => accepts('status', s))).toBe(true);
    expect(accepts('status', 'foo')).toBe(false);
    expect(accepts('featured', 'true')).toBe(true);
    expect(accepts('featured', 'false')).toBe(false);
    expect(accepts('recommended', 'true')).toBe(true);
    expect(accepts('recommended', 'yes')).toBe(false);
    expect(accepts('limit', 1)).toBe(true);
    expect(accepts('limit', 5000)).toBe(true);
    expect(accepts('limit', 0)).toBe(false);
    expect(accepts('limit', 1.5)).toBe(false);
    expect(['deals', 'programs', 'all'].every((s) => accepts('scope', s))).toBe(true);
    expect(accepts('scope', 'x')).toBe(false);
    expect((at(params.get('scope')?.schemaPointer ?? '') as Json).default).toBe('deals');
    for (const name of ['search', 'category', 'slug', 'id']) expect(accepts(name, 'anything'), name).toBe(true);
    expect(['relevance', 'value', 'expiry', 'newest'].every((s) => accepts('sort', s))).toBe(true);
    expect(accepts('sort', 'price')).toBe(false);
    expect((at(params.get('sort')?.schemaPointer ?? '') as Json).default).toBe('relevance');
    expect(accepts('equity', 'none')).toBe(true);
    expect(accepts('equity', 'some')).toBe(false);
    expect(accepts('stage', 'seed')).toBe(true);
    expect(accepts('stage', 'series-c')).toBe(false);
    expect(accepts('region', 'europe')).toBe(true);
    expect(accepts('region', 'mars')).toBe(false);
  });

  test('listStartups: every SPEC query parameter, typed as the SPEC says', () => {
    const params = queryParams('listStartups');
    expect([...params.keys()].sort()).toEqual(['category', 'country', 'featured', 'forSale', 'maxRevenue', 'minRevenue', 'search', 'source'].sort());
    const accepts = (name: string, value: unknown) => validatorAt(params.get(name)?.schemaPointer ?? '#/missing')(value);
    expect(accepts('minRevenue', 1000)).toBe(true);
    expect(accepts('minRevenue', 1.5)).toBe(false);
    expect(accepts('maxRevenue', 1000)).toBe(true);
    expect(accepts('maxRevenue', 'abc')).toBe(false);
    expect(accepts('featured', 'true')).toBe(true);
    expect(accepts('featured', 'false')).toBe(false);
    expect(accepts('forSale', 'true')).toBe(true);
    expect(accepts('forSale', 'false')).toBe(true);
    expect(accepts('forSale', 'yes')).toBe(false);
  });

  test('deleteDeal: query parameters id, slug and ids', () => {
    expect([...queryParams('deleteDeal').keys()]).toEqual(expect.arrayContaining(['id', 'slug', 'ids']));
  });

  test('the session cookie security scheme guards the admin operations, and only them', async () => {
    const schemes = (doc.components as Json).securitySchemes as Record<string, Json>;
    const cookieSchemes = Object.entries(schemes).filter(([, s]) => s.type === 'apiKey' && s.in === 'cookie');
    expect(cookieSchemes).toHaveLength(1);
    const [schemeName, scheme] = cookieSchemes[0] as [string, Json];
    // The cookie the sign-in really sets.
    expect(adminCookie.split('=')[0]).toBe(scheme.name);
    for (const id of ['createDeal', 'updateDeal', 'deleteDeal']) {
      expect(operation(id).op.security, id).toEqual([{ [schemeName]: [] }]);
    }
    expect(doc.security ?? []).toEqual([]);
    for (const id of ['listOrSearchDeals', 'listStartups', 'submitDeal']) {
      const security = (operation(id).op.security as Json[] | undefined) ?? [];
      expect(
        security.every((s) => Object.keys(s).length === 0),
        id,
      ).toBe(true);
    }
  });

  test('every component schema compiles under ajv strict mode', () => {
    for (const name of Object.keys(((doc.components as Json).schemas as Json) ?? {})) {
      expect(() => validatorAt(`#/components/schemas/${escapePointer(name)}`), name).not.toThrow();
    }
  });
});

// --- the contract ---

describe('contract: listOrSearchDeals', () => {
  test('200 list', async () => {
    const result = await call(env.url, 'GET', '/api/v1/deals?limit=3&scope=all');
    expect(result.status).toBe(200);
    expectDocumented('listOrSearchDeals', result);
  });

  test('200 list, whole catalog with every status', async () => {
    const result = await call(env.url, 'GET', '/api/v1/deals?status=all&scope=all');
    expect(result.status).toBe(200);
    expectDocumented('listOrSearchDeals', result);
  });

  test('200 single, by slug and by id', async () => {
    const bySlug = await call(env.url, 'GET', '/api/v1/deals?slug=stripe-atlas');
    expect(bySlug.status).toBe(200);
    expectDocumented('listOrSearchDeals', bySlug);
    const byId = await call(env.url, 'GET', '/api/v1/deals?id=d-str00005');
    expect(byId.status).toBe(200);
    expectDocumented('listOrSearchDeals', byId);
  });

  test('404', async () => {
    const result = await call(env.url, 'GET', '/api/v1/deals?slug=no-such-deal');
    expect(result.status).toBe(404);
    expectDocumented('listOrSearchDeals', result);
  });

  test('400 for limit=0 and status=foo', async () => {
    for (const query of ['?limit=0', '?status=foo']) {
      const result = await call(env.url, 'GET', `/api/v1/deals${query}`);
      expect(result.status, query).toBe(400);
      expectDocumented('listOrSearchDeals', result);
    }
  });

  test('304 with If-None-Match', async () => {
    const first = await call(env.url, 'GET', '/api/v1/deals?limit=2');
    const etag = first.headers.get('etag');
    expect(etag).not.toBeNull();
    const again = await call(env.url, 'GET', '/api/v1/deals?limit=2', { headers: { 'If-None-Match': etag as string } });
    expect(again.status).toBe(304);
    expectDocumented('listOrSearchDeals', again);
  });
});

describe('contract: listStartups', () => {
  test('200, unfiltered and filtered', async () => {
    for (const query of ['', '?forSale=true&minRevenue=100000', '?country=US&featured=true']) {
      const result = await call(env.url, 'GET', `/api/v1/startups${query}`);
      expect(result.status, query).toBe(200);
      expectDocumented('listStartups', result);
    }
  });

  test('400 for a bad minRevenue', async () => {
    const result = await call(env.url, 'GET', '/api/v1/startups?minRevenue=abc');
    expect(result.status).toBe(400);
    expectDocumented('listStartups', result);
  });

  test('405 for POST', async () => {
    const result = await call(env.url, 'POST', '/api/v1/startups', { body: {} });
    expect(result.status).toBe(405);
    expectDocumented('listStartups', result);
  });
});

describe('contract: submitDeal', () => {
  let next = 1;
  const address = () => `127.0.${200 + next++}.7`;
  const submission = (word = uniqueWord()) => ({
    company_name: `Contract ${word}`,
    website_url: 'https://contract.example',
    benefit_description: 'Twenty percent off the first year for seed-stage startups.',
    category: 'saas',
    deal_value: '20% off',
    redemption_link: `https://contract.example/${word}`,
  });
  const submit = (body: unknown, from: string, options: { headers?: Record<string, string>; rawBody?: string } = {}) =>
    callFrom(from, env.url, 'POST', '/api/v1/submit-deal', { body, origin: null, ...options });

  test('201, and the request is allowed by the documented schema', async () => {
    const body = submission();
    expectRequestAllowed('submitDeal', body);
    const result = await submit(body, address());
    expect(result.status, result.text).toBe(201);
    expectDocumented('submitDeal', result);
  });

  test('201 for a duplicate (same company and link)', async () => {
    const body = submission();
    const from = address();
    expect((await submit(body, from)).status).toBe(201);
    const again = await submit(body, from);
    expect(again.status, again.text).toBe(201);
    expectDocumented('submitDeal', again);
  });

  test('400 for an invalid body, which the documented schema rejects too', async () => {
    const bodies = [
      { ...submission(), company_name: 'A' },
      { ...submission(), category: 'crypto' },
      { ...submission(), website_url: 'javascript:alert(1)' },
    ];
    for (const body of bodies) {
      expectRequestRejected('submitDeal', body);
      const result = await submit(body, address());
      expect(result.status, result.text).toBe(400);
      expectDocumented('submitDeal', result);
    }
  });

  test('405 for GET', async () => {
    const result = await call(env.url, 'GET', '/api/v1/submit-deal');
    expect(result.status).toBe(405);
    expectDocumented('submitDeal', result);
  });

  test('413 for a body over the size limit', async () => {
    const result = await submit(undefined, address(), { rawBody: JSON.stringify({ ...submission(), benefit_description: 'x'.repeat(400 * 1024) }) });
    expect(result.status).toBe(413);
    expectDocumented('submitDeal', result);
  });

  test('429 after 5 accepted submissions from one address', async () => {
    const from = address();
    for (let i = 0; i < 5; i++) {
      const accepted = await submit(submission(), from);
      expect(accepted.status, accepted.text).toBe(201);
    }
    const limited = await submit(submission(), from);
    expect(limited.status).toBe(429);
    expectDocumented('submitDeal', limited);
  });

  test('a form-encoded submission (a documented request media type) gets a JSON 201 from an API client', async () => {
    const fields = submission();
    const form = new URLSearchParams(fields).toString();
    expectRequestAllowed('submitDeal', fields, 'application/x-www-form-urlencoded');
    const result = await submit(undefined, address(), { rawBody: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' } });
    expect(result.status, result.text).toBe(201);
    expectDocumented('submitDeal', result);
  });

  test('a browser form post of the documented form media type answers a documented status', async () => {
    const form = new URLSearchParams(submission()).toString();
    const result = await submit(undefined, address(), { rawBody: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html,application/xhtml+xml' } });
    // The server answers 303 (redirect to the thanks page); the document must say so.
    expect(result.status).toBe(303);
    expectDocumented('submitDeal', result);
  });
});

describe('contract: createDeal', () => {
  const newDeal = (word = uniqueWord()) => ({ title: `Contract deal ${word}`, provider: 'Contract Inc', category: 'cloud-credits', applicationUrl: `https://contract.example/${word}` });

  test('200 for one deal, and the request is allowed by the documented schema', async () => {
    const body = newDeal();
    expectRequestAllowed('createDeal', body);
    const result = await call(env.url, 'POST', '/api/v1/deals', { body, cookie: adminCookie });
    expect(result.status, result.text).toBe(200);
    expectDocumented('createDeal', result);
  });

  test('200 for a bulk upsert', async () => {
    const body = { deals: [newDeal(), newDeal()] };
    expectRequestAllowed('createDeal', body);
    const result = await call(env.url, 'POST', '/api/v1/deals', { body, cookie: adminCookie });
    expect(result.status, result.text).toBe(200);
    expectDocumented('createDeal', result);
  });

  test('400 for a duplicate slug', async () => {
    const result = await call(env.url, 'POST', '/api/v1/deals', { body: { ...newDeal(), slug: 'stripe-atlas' }, cookie: adminCookie });
    expect(result.status, result.text).toBe(400);
    expectDocumented('createDeal', result);
  });

  test('400 for a deal with neither slug nor title', async () => {
    const body = { provider: 'Contract Inc', category: 'cloud-credits', applicationUrl: 'https://contract.example/x' };
    const result = await call(env.url, 'POST', '/api/v1/deals', { body, cookie: adminCookie });
    expect(result.status, result.text).toBe(400);
    expectDocumented('createDeal', result);
  });

  test('401 without a session, 403 for a member', async () => {
    const anonymous = await call(env.url, 'POST', '/api/v1/deals', { body: newDeal() });
    expect(anonymous.status).toBe(401);
    expectDocumented('createDeal', anonymous);
    const member = await call(env.url, 'POST', '/api/v1/deals', { body: newDeal(), cookie: memberCookie });
    expect(member.status).toBe(403);
    expectDocumented('createDeal', member);
  });
});

describe('contract: updateDeal', () => {
  test('200, and the request is allowed by the documented schema', async () => {
    const body = { slug: 'y-combinator', value: `$500k for ${uniqueWord()}` };
    expectRequestAllowed('updateDeal', body);
    const result = await call(env.url, 'PUT', '/api/v1/deals', { body, cookie: adminCookie });
    expect(result.status, result.text).toBe(200);
    expectDocumented('updateDeal', result);
  });

  test('the documented request schema allows `null` to remove an optional field, as the server does', async () => {
    const body = { slug: 'techstars', timeToApply: null };
    const result = await call(env.url, 'PUT', '/api/v1/deals', { body, cookie: adminCookie });
    expect(result.status, result.text).toBe(200);
    expectDocumented('updateDeal', result);
    expectRequestAllowed('updateDeal', body);
  });

  test('400 without id or slug', async () => {
    const result = await call(env.url, 'PUT', '/api/v1/deals', { body: { value: 'x' }, cookie: adminCookie });
    expect(result.status).toBe(400);
    expectDocumented('updateDeal', result);
  });

  test('401 without a session, 403 for a member', async () => {
    const anonymous = await call(env.url, 'PUT', '/api/v1/deals', { body: { slug: 'y-combinator', value: 'x' } });
    expect(anonymous.status).toBe(401);
    expectDocumented('updateDeal', anonymous);
    const member = await call(env.url, 'PUT', '/api/v1/deals', { body: { slug: 'y-combinator', value: 'x' }, cookie: memberCookie });
    expect(member.status).toBe(403);
    expectDocumented('updateDeal', member);
  });

  test('404 for an unknown id', async () => {
    const result = await call(env.url, 'PUT', '/api/v1/deals', { body: { id: 'd-nothere1', value: 'x' }, cookie: adminCookie });
    expect(result.status).toBe(404);
    expectDocumented('updateDeal', result);
  });

  test('412 for a stale If-Match', async () => {
    const result = await call(env.url, 'PUT', '/api/v1/deals', { body: { slug: 'y-combinator', value: 'x' }, cookie: adminCookie, headers: { 'If-Match': '"stale-etag"' } });
    expect(result.status).toBe(412);
    expectDocumented('updateDeal', result);
  });
});

describe('contract: deleteDeal', () => {
  async function createOne(): Promise<{ id: string; slug: string }> {
    const word = uniqueWord();
    const created = await call(env.url, 'POST', '/api/v1/deals', {
      body: { title: `Doomed ${word}`, provider: 'Contract Inc', category: 'saas-discounts', applicationUrl: `https://contract.example/${word}` },
      cookie: adminCookie,
    });
    expect(created.status, created.text).toBe(200);
    return (created.body as { deal: { id: string; slug: string } }).deal;
  }

  test('200 by slug, by id and by a list of ids', async () => {
    const [a, b, c, d] = [await createOne(), await createOne(), await createOne(), await createOne()];
    for (const query of [`?slug=${a.slug}`, `?id=${b.id}`, `?ids=${c.id},${d.id}`]) {
      const result = await call(env.url, 'DELETE', `/api/v1/deals${query}`, { cookie: adminCookie });
      expect(result.status, `${query}: ${result.text}`).toBe(200);
      expectDocumented('deleteDeal', result);
    }
  });

  test('400 without id, ids or slug', async () => {
    const result = await call(env.url, 'DELETE', '/api/v1/deals', { cookie: adminCookie });
    expect(result.status).toBe(400);
    expectDocumented('deleteDeal', result);
  });

  test('401 without a session, 403 for a member', async () => {
    const anonymous = await call(env.url, 'DELETE', '/api/v1/deals?slug=stripe-atlas');
    expect(anonymous.status).toBe(401);
    expectDocumented('deleteDeal', anonymous);
    const member = await call(env.url, 'DELETE', '/api/v1/deals?slug=stripe-atlas', { cookie: memberCookie });
    expect(member.status).toBe(403);
    expectDocumented('deleteDeal', member);
  });

  test('404 for an unknown id', async () => {
    const result = await call(env.url, 'DELETE', '/api/v1/deals?id=d-nothere1', { cookie: adminCookie });
    expect(result.status).toBe(404);
    expectDocumented('deleteDeal', result);
  });

  test('412 for a stale If-Match', async () => {
    const deal = await createOne();
    const result = await call(env.url, 'DELETE', `/api/v1/deals?slug=${deal.slug}`, { cookie: adminCookie, headers: { 'If-Match': '"stale-etag"' } });
    expect(result.status).toBe(412);
    expectDocumented('deleteDeal', result);
  });
});

describe('contract: sign-in operations', () => {
  test('signIn 200 and 401; currentSession 200 and 401', async () => {
    const ok = await call(env.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    expect(ok.status).toBe(200);
    expectDocumented('signIn', ok);
    const wrong = await call(env.url, 'POST', '/api/v1/auth/login', { body: { email: MEMBER.email, password: 'not-the-password' } });
    expect(wrong.status).toBe(401);
    expectDocumented('signIn', wrong);
    const session = await call(env.url, 'GET', '/api/v1/auth/session', { cookie: adminCookie });
    expect(session.status).toBe(200);
    expectDocumented('currentSession', session);
    const none = await call(env.url, 'GET', '/api/v1/auth/session');
    expect(none.status).toBe(401);
    expectDocumented('currentSession', none);
  });
});
