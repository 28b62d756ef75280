/**
 * /openapi.json held to what OpenAPI linters and a document-driven fuzzer found missing
 * (issue 14, item 9), on the real server: request schemas carry every rule the server enforces
 * (and a body generated from them is accepted), every operation says its security, every
 * response lists the headers the server really sends with it, every component is used, the
 * examples are valid (the list and lookup ones are real answers), the server URL has no trailing
 * slash, and `/api/mcp` documents its one method, its required `Accept` and its refusals.
 * `npm run lint:openapi` runs the linters themselves.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ADMIN, MEMBER, call, callFrom, login, startWriteServer, takeErrors, uniqueWord, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';
import { fixtureCategories, fixtureSite, parseJson, strictAjv } from '../helpers/agents-support.ts';

type Json = Record<string, unknown>;
const DOC_ID = 'https://openapi-rules.test/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const FORM = 'application/x-www-form-urlencoded';
const MCP_ACCEPT = 'application/json, text/event-stream';
const DEPRECATION = { path: '/startups', deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2027-07-01T00:00:00Z', successor: '/api/v2/startups' };
/** Headers the server sends that a client may act on: each one a response carries must be documented on it. */
const TRACKED_HEADERS = ['api-version', 'x-request-id', 'ratelimit', 'ratelimit-policy', 'link', 'etag', 'server-timing', 'retry-after', 'deprecation', 'sunset', 'allow', 'location', 'set-cookie'];
/** The operations that need a signed-in session (SPEC "Authentication" 2, and the admin pages). */
const SESSION_OPERATIONS = [
  'createDeal',
  'updateDeal',
  'deleteDeal',
  'currentSession',
  'listSubmissions',
  'approveSubmission',
  'rejectSubmission',
  'listSearchGaps',
  'listNeedsAttention',
  'listAdminStartups',
  'createStartup',
  'updateStartup',
  'deleteStartup',
  'dealHistory',
  'revertDeal',
  'startupHistory',
  'revertStartup',
  'getDealLogo',
  'getStartupLogo',
  'putDealLogo',
  'deleteDealLogo',
  'putStartupLogo',
  'deleteStartupLogo',
  'listDrafts',
  'previewSaved',
  'previewUnsaved',
  'listSaved',
  'saveItem',
  'removeSavedItem',
  'exportMyData',
  'deleteMyAccount',
  'getBilling',
  'startCheckout',
  'openBillingPortal',
  'getDashboard',
  'getProfile',
  'setProfile',
  'markSavedSeen',
  'runAlertRound',
];

/** One served document, read as a linter or a fuzzer would. */
class Doc {
  readonly doc: Json;
  readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ReturnType<Ajv2020['compile']>>();

  constructor(doc: Json) {
    this.doc = doc;
    this.ajv = strictAjv(Object.keys(doc));
    this.ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  at(pointer: string): unknown {
    let node: unknown = this.doc;
    for (const raw of pointer
      .replace(/^#\/?/, '')
      .split('/')
      .filter((s) => s !== ''))
      node = (node as Json | undefined)?.[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
    return node;
  }

  /** Follow `$ref`s from a pointer: the pointer reached and the object there. */
  deref(pointer: string): [string, Json] {
    let current = pointer;
    for (let i = 0; i < 10; i++) {
      const node = this.at(current) as Json | undefined;
      if (node && typeof node.$ref === 'string') current = node.$ref;
      else return [current, node as Json];
    }
    throw new Error(`$ref loop at ${pointer}`);
  }

  operations(): { id: string; path: string; method: string; op: Json; pointer: string }[] {
    return Object.entries(this.doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ id: (op as Json).operationId as string, path, method, op: op as Json, pointer: `#/paths/${escape(path)}/${method}` })),
    );
  }

  operation(id: string): { path: string; method: string; op: Json; pointer: string } {
    const found = this.operations().find((o) => o.id === id);
    if (!found) throw new Error(`no operation ${id}`);
    return found;
  }

  validator(pointer: string): ReturnType<Ajv2020['compile']> {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      expect(this.at(pointer), `no schema at ${pointer}`).toBeDefined();
      validate = this.ajv.compile({ $ref: `${DOC_ID}${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  valid(pointer: string, value: unknown): { ok: boolean; errors: string } {
    const validate = this.validator(pointer);
    const ok = validate(value) as boolean;
    return { ok, errors: this.ajv.errorsText(validate.errors) };
  }

  /** The JSON request body schema pointer of an operation. */
  requestSchema(id: string, mediaType = 'application/json'): string {
    const [pointer] = this.deref(`${this.operation(id).pointer}/requestBody`);
    return `${pointer}/content/${escape(mediaType)}/schema`;
  }

  /** `result` is a documented answer of `id`: status, body schema, and every tracked header it carries. */
  expectDocumented(id: string, result: JsonResult): void {
    const { op, pointer } = this.operation(id);
    const status = String(result.status);
    const label = `${id} ${status}`;
    expect(Object.keys(op.responses as Json), `${label} is not documented (${result.text.slice(0, 200)})`).toContain(status);
    const [responsePointer, response] = this.deref(`${pointer}/responses/${status}`);
    const content = response.content as Json | undefined;
    if (!content) expect(result.text, `${label}: documented without a body`).toBe('');
    else {
      const mediaType = (result.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
      expect(Object.keys(content), `${label}: media type`).toContain(mediaType);
      const check = this.valid(`${responsePointer}/content/${escape(mediaType)}/schema`, result.body);
      expect(check.ok, `${label}: ${check.errors}\n${result.text.slice(0, 400)}`).toBe(true);
    }
    const documented = Object.keys((response.headers as Json | undefined) ?? {}).map((h) => h.toLowerCase());
    const sent = TRACKED_HEADERS.filter((h) => result.headers.has(h));
    expect(
      sent.filter((h) => !documented.includes(h)),
      `${label}: headers sent but not documented`,
    ).toEqual([]);
  }
}

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Every `$ref` value anywhere in a JSON value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

const site = fixtureSite();
let env: WriteServer;
let doc: Doc;
let adminCookie: string;
let memberCookie: string;
let nextAddress = 1;
/** A fresh client address, for the per-address submission limit. */
const address = () => `127.0.${100 + Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

async function fetchDoc(base: string): Promise<Doc> {
  const response = await fetch(`${base}/openapi.json`);
  expect(response.status).toBe(200);
  return new Doc(parseJson(await response.text()) as Json);
}

beforeAll(async () => {
  env = await startWriteServer([ADMIN, MEMBER]);
  doc = await fetchDoc(env.url);
  [adminCookie, memberCookie] = await Promise.all([login(env.url, ADMIN), login(env.url, MEMBER)]);
});
afterAll(async () => {
  await env?.stop();
});
afterEach(() => {
  expect(takeErrors(env.server)).toEqual([]);
});

describe('what the linters check', () => {
  test('servers: the site origin, without a trailing slash (no `//api/v1` for generators)', () => {
    const servers = doc.doc.servers as { url: string }[];
    expect(servers.length).toBeGreaterThan(0);
    for (const { url } of servers) {
      expect(url.endsWith('/'), url).toBe(false);
      expect(url).toBe(new URL(site.baseUrl).origin);
      expect(`${url}/api/v1`.replace(/^https?:\/\//, '')).not.toContain('//');
    }
  });

  test('info.license is MIT, as the README says', () => {
    expect((doc.doc.info as Json).license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  test('every operation has a summary, a description and tags, and every tag is declared once at the top', () => {
    const declared = (doc.doc.tags as { name: string; description?: string }[]).map((t) => t.name);
    expect(new Set(declared).size).toBe(declared.length);
    for (const name of ['deals', 'startups', 'submissions', 'auth', 'admin', 'agents', 'health']) expect(declared).toContain(name);
    const used = new Set<string>();
    for (const { id, op } of doc.operations()) {
      expect(typeof op.summary === 'string' && op.summary.length > 0, `${id} summary`).toBe(true);
      expect(typeof op.description === 'string' && op.description.length > 0, `${id} description`).toBe(true);
      const tags = op.tags as string[] | undefined;
      expect(tags?.length ?? 0, `${id} tags`).toBeGreaterThan(0);
      for (const tag of tags ?? []) {
        expect(declared, `${id} tag ${tag}`).toContain(tag);
        used.add(tag);
      }
    }
    expect([...used].sort()).toEqual([...declared].sort());
  });

  test('every operation says its security: the session cookie where one is needed, none (`[]`, or `{}` beside an optional cookie) elsewhere', () => {
    expect(doc.doc.security).toBeUndefined();
    for (const { id, op } of doc.operations()) {
      expect(Array.isArray(op.security), `${id} has no security`).toBe(true);
      const security = op.security as Json[];
      if (SESSION_OPERATIONS.includes(id)) expect(security, id).toEqual([{ sessionCookie: [] }]);
      else expect(security.length === 0 || security.some((s) => Object.keys(s).length === 0), `${id}: ${JSON.stringify(security)}`).toBe(true);
    }
    expect(doc.operation('listOrSearchDeals').op.security).toEqual([]);
    expect(doc.operation('submitDeal').op.security).toEqual([]);
  });

  test('an operation documented as needing the session answers 401 without one; a public read answers without one', async () => {
    for (const { id, path, method } of doc.operations()) {
      const body = method === 'post' || method === 'put' ? {} : undefined;
      const result = await call(env.url, method.toUpperCase(), path, { body });
      if (SESSION_OPERATIONS.includes(id)) {
        expect(result.status, `${id}: ${result.text}`).toBe(401);
        doc.expectDocumented(id, result);
      } else if (method === 'get') expect(result.status, `${id}: ${result.text}`).not.toBe(401);
    }
  });

  test('every component (schema, response, header) is used, and every $ref resolves', () => {
    const refs = refsIn(doc.doc);
    for (const ref of refs) expect(doc.at(ref), ref).toBeDefined();
    const components = doc.doc.components as Record<string, Json>;
    for (const kind of ['schemas', 'responses', 'headers', 'parameters']) {
      for (const name of Object.keys(components[kind] ?? {})) {
        const pointer = `#/components/${kind}/${escape(name)}`;
        // Used means referenced from outside its own definition.
        const outside = refsIn({ ...doc.doc, components: { ...components, [kind]: { ...components[kind], [name]: undefined } } });
        expect(outside, `${pointer} is unused`).toContain(pointer);
      }
    }
  });

  test('Deprecation and Sunset are defined only when a route is deprecated (none is here)', () => {
    const headers = Object.keys((doc.doc.components as Json).headers as Json);
    expect(headers).not.toContain('Deprecation');
    expect(headers).not.toContain('Sunset');
    for (const name of ['API-Version', 'X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Link', 'ETag', 'Server-Timing']) expect(headers).toContain(name);
    expect(doc.operations().filter((o) => o.op.deprecated)).toEqual([]);
  });

  test('every example is valid for its schema (media types and parameters)', () => {
    let count = 0;
    for (const { id, op, pointer } of doc.operations()) {
      const bodies: [string, Json][] = [];
      if (op.requestBody) {
        const [requestPointer, request] = doc.deref(`${pointer}/requestBody`);
        bodies.push([requestPointer, request]);
      }
      for (const status of Object.keys(op.responses as Json)) bodies.push(doc.deref(`${pointer}/responses/${status}`));
      for (const [at, holder] of bodies) {
        for (const [mediaType, media] of Object.entries((holder.content as Record<string, Json> | undefined) ?? {})) {
          for (const [name, example] of Object.entries((media.examples as Record<string, Json> | undefined) ?? {})) {
            const check = doc.valid(`${at}/content/${escape(mediaType)}/schema`, example.value);
            expect(check.ok, `${id} ${at} ${name}: ${check.errors}`).toBe(true);
            count++;
          }
        }
      }
      ((op.parameters as Json[] | undefined) ?? []).forEach((param, i) => {
        if (param.example === undefined) return;
        expect(doc.valid(`${pointer}/parameters/${i}/schema`, param.example).ok, `${id} parameter ${String(param.name)}`).toBe(true);
        count++;
      });
    }
    expect(count).toBeGreaterThanOrEqual(12);
    // The main request bodies and the list and lookup answers have one.
    for (const id of ['createDeal', 'updateDeal', 'submitDeal', 'signIn', 'approveSubmission', 'rejectSubmission', 'mcp']) {
      expect(Object.keys((doc.at(doc.requestSchema(id).replace(/\/schema$/, '/examples')) as Json | undefined) ?? {}).length, id).toBeGreaterThan(0);
    }
    for (const id of ['listOrSearchDeals', 'listStartups', 'health']) {
      expect(Object.keys((doc.at(`${doc.operation(id).pointer}/responses/200/content/application~1json/examples`) as Json | undefined) ?? {}).length, id).toBeGreaterThan(0);
    }
  });

  test('the list and lookup examples are the answers the server gives to the request each names', async () => {
    // The document of the catalog served now (writes in other tests make a new one).
    const current = await fetchDoc(env.url);
    let count = 0;
    for (const id of ['listOrSearchDeals', 'listStartups']) {
      const examples = current.at(`${current.operation(id).pointer}/responses/200/content/application~1json/examples`) as Record<string, { summary: string; value: unknown }>;
      for (const [name, example] of Object.entries(examples)) {
        const request = /^`GET (\/api\/v1\/\S+)`$/.exec(example.summary)?.[1];
        expect(request, `${id} ${name}: the summary names the request`).toBeDefined();
        const result = await call(env.url, 'GET', request as string);
        expect(result.status).toBe(200);
        expect(result.body, `${id} ${name}`).toEqual(example.value);
        count++;
      }
    }
    expect(count).toBe(3);
  });
});

describe('request schemas carry the rules the server enforces', () => {
  test("DealInput requires what a new deal needs, limits category to the catalog's slugs and refuses blank text", () => {
    const schema = '#/components/schemas/DealInput';
    expect(((doc.at(schema) as Json).required as string[]).sort()).toEqual(['applicationUrl', 'category', 'provider', 'title']);
    expect((doc.at('#/components/schemas/DealCategory') as Json).enum).toEqual(fixtureCategories().map((c) => c.slug));
    const deal = { title: 'Acme credits', provider: 'Acme', category: 'cloud-credits', applicationUrl: 'https://acme.example/apply' };
    expect(doc.valid(schema, deal).ok).toBe(true);
    for (const field of Object.keys(deal)) {
      const { [field as keyof typeof deal]: _dropped, ...rest } = deal;
      expect(doc.valid(schema, rest).ok, `without ${field}`).toBe(false);
    }
    expect(doc.valid(schema, { ...deal, category: 'crypto' }).ok).toBe(false);
    expect(doc.valid(schema, { ...deal, title: '   ' }).ok).toBe(false);
    expect(doc.valid(schema, { ...deal, tags: [' '] }).ok).toBe(false);
  });

  test('the server refuses what DealInput refuses', async () => {
    const word = uniqueWord();
    const deal = { title: `Refused ${word}`, provider: 'Acme', category: 'cloud-credits', applicationUrl: `https://acme.example/${word}` };
    const bodies = [
      { ...deal, category: 'crypto' },
      { ...deal, title: '   ' },
      { ...deal, provider: undefined },
      { ...deal, applicationUrl: undefined },
    ];
    for (const body of bodies) {
      expect(doc.valid('#/components/schemas/DealInput', JSON.parse(JSON.stringify(body))).ok, JSON.stringify(body)).toBe(false);
      const result = await call(env.url, 'POST', '/api/v1/deals', { body, cookie: adminCookie });
      expect(result.status, `${JSON.stringify(body)}: ${result.text}`).toBe(400);
      doc.expectDocumented('createDeal', result);
    }
  });

  test('DealUpdate requires id or slug, and allows null only for fields a deal may go without', () => {
    const schema = '#/components/schemas/DealUpdate';
    expect(doc.valid(schema, { value: 'x' }).ok).toBe(false);
    expect(doc.valid(schema, {}).ok).toBe(false);
    expect(doc.valid(schema, { slug: 'y-combinator', value: 'x' }).ok).toBe(true);
    expect(doc.valid(schema, { id: 'd-str00005', value: 'x' }).ok).toBe(true);
    expect(doc.valid(schema, { id: '', value: 'x' }).ok).toBe(false);
    expect(doc.valid(schema, { slug: 'techstars', timeToApply: null }).ok).toBe(true);
    for (const field of ['title', 'provider', 'category', 'applicationUrl', 'status']) expect(doc.valid(schema, { slug: 'techstars', [field]: null }).ok, field).toBe(false);
  });

  test('the server refuses the nulls DealUpdate refuses', async () => {
    for (const field of ['title', 'applicationUrl']) {
      const result = await call(env.url, 'PUT', '/api/v1/deals', { body: { slug: 'techstars', [field]: null }, cookie: adminCookie });
      expect(result.status, `${field}: ${result.text}`).toBe(400);
      doc.expectDocumented('updateDeal', result);
    }
  });

  test('deleteDeal says it needs id, ids or slug, and the server answers 400 without them', async () => {
    const { op } = doc.operation('deleteDeal');
    expect(op.description).toMatch(/one of `id`, `ids` or `slug` is required/i);
    for (const name of ['id', 'ids', 'slug']) {
      const param = (op.parameters as Json[]).find((p) => p.name === name && p.in === 'query');
      expect(param?.description, name).toMatch(/One of `id`, `ids` or `slug` is required/);
    }
    const result = await call(env.url, 'DELETE', '/api/v1/deals?id=&slug=', { cookie: adminCookie });
    expect(result.status).toBe(400);
    doc.expectDocumented('deleteDeal', result);
  });

  test('sign-in, approve and reject: the empty strings the server refuses, the document refuses', async () => {
    const cases: { id: string; path: string; body: Json; cookie?: string }[] = [
      { id: 'signIn', path: '/api/v1/auth/login', body: { email: '', password: 'x' } },
      { id: 'signIn', path: '/api/v1/auth/login', body: { email: '   ', password: 'x' } },
      { id: 'signIn', path: '/api/v1/auth/login', body: { email: ADMIN.email, password: '' } },
      { id: 'approveSubmission', path: '/api/v1/admin/submissions/approve', body: { id: '' }, cookie: adminCookie },
      { id: 'rejectSubmission', path: '/api/v1/admin/submissions/reject', body: { id: '', reason: 'Not a startup offer.' }, cookie: adminCookie },
      { id: 'rejectSubmission', path: '/api/v1/admin/submissions/reject', body: { id: 'sub-0000000000000000', reason: '' }, cookie: adminCookie },
      { id: 'rejectSubmission', path: '/api/v1/admin/submissions/reject', body: { id: 'sub-0000000000000000', reason: '   ' }, cookie: adminCookie },
    ];
    for (const { id, path, body, cookie } of cases) {
      expect(doc.valid(doc.requestSchema(id), body).ok, `${id} ${JSON.stringify(body)}`).toBe(false);
      const result = await call(env.url, 'POST', path, { body, ...(cookie ? { cookie } : {}) });
      expect(result.status, `${id} ${JSON.stringify(body)}: ${result.text}`).toBe(400);
      doc.expectDocumented(id, result);
    }
  });
});

describe('submitDeal: what the server reads, the document says', () => {
  const submission = () => {
    const word = uniqueWord();
    return {
      company_name: `Rules ${word}`,
      website_url: 'https://rules.example',
      benefit_description: 'Thirty percent off the first year for seed-stage startups.',
      category: 'saas',
      deal_value: '30% off',
      redemption_link: `https://rules.example/${word}`,
    };
  };
  const submit = (options: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) => callFrom(address(), env.url, 'POST', '/api/v1/submit-deal', { origin: null, ...options });

  test('an empty optional field counts as left out (JSON and forms alike), and an empty method is the default `link`', async () => {
    const schema = doc.requestSchema('submitDeal');
    for (const body of [
      { ...submission(), logo_url: '' },
      { ...submission(), submitter_email: '', is_exclusive: '', redemption_method: '' },
    ]) {
      expect(doc.valid(schema, body).ok, JSON.stringify(body)).toBe(true);
      const result = await submit({ body });
      expect(result.status, `${JSON.stringify(body)}: ${result.text}`).toBe(201);
      doc.expectDocumented('submitDeal', result);
    }
    for (const body of [
      { ...submission(), redemption_method: '', redemption_link: 'SEED30' },
      { ...submission(), company_name: '' },
    ]) {
      expect(doc.valid(schema, body).ok, JSON.stringify(body)).toBe(false);
      const result = await submit({ body });
      expect(result.status, `${JSON.stringify(body)}: ${result.text}`).toBe(400);
      doc.expectDocumented('submitDeal', result);
    }
  });

  test('both form encodings are documented and read as the same object', async () => {
    const content = (doc.at(doc.requestSchema('submitDeal').replace(/\/application~1json\/schema$/, '')) as Json) ?? {};
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    const urlencoded = await submit({ rawBody: new URLSearchParams(submission()).toString(), headers: { 'Content-Type': FORM, Accept: 'application/json' } });
    expect(urlencoded.status, urlencoded.text).toBe(201);
    doc.expectDocumented('submitDeal', urlencoded);
    const boundary = 'rules-boundary-7f3a';
    const parts = Object.entries(submission()).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    const multipart = await submit({ rawBody: `${parts.join('')}--${boundary}--\r\n`, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, Accept: 'application/json' } });
    expect(multipart.status, multipart.text).toBe(201);
    doc.expectDocumented('submitDeal', multipart);
  });
});

describe('a write generated from the document succeeds', () => {
  test('createDeal: the smallest and the fullest DealInput, and a bulk of them', async () => {
    const minimal = generate(doc, '#/components/schemas/DealInput', 'minimal', uniqueWord('gen'));
    const full = generate(doc, '#/components/schemas/DealInput', 'full', uniqueWord('gen'));
    expect(Object.keys(minimal).sort()).toEqual(['applicationUrl', 'category', 'provider', 'title']);
    expect(Object.keys(full).length).toBe(Object.keys((doc.at('#/components/schemas/DealInput') as Json).properties as Json).length);
    for (const body of [minimal, full]) {
      const check = doc.valid(doc.requestSchema('createDeal'), body);
      expect(check.ok, check.errors).toBe(true);
      const result = await call(env.url, 'POST', '/api/v1/deals', { body, cookie: adminCookie });
      expect(result.status, `${JSON.stringify(body)}: ${result.text}`).toBe(200);
      doc.expectDocumented('createDeal', result);
      const deal = (result.body as { deal: Json }).deal;
      for (const [field, value] of Object.entries(body)) expect(deal[field], field).toEqual(value);
    }
    const bulk = { deals: [generate(doc, '#/components/schemas/DealInput', 'full', uniqueWord('gen')), generate(doc, '#/components/schemas/DealInput', 'minimal', uniqueWord('gen'))] };
    expect(doc.valid(doc.requestSchema('createDeal'), bulk).ok).toBe(true);
    const result = await call(env.url, 'POST', '/api/v1/deals', { body: bulk, cookie: adminCookie });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ created: 2, updated: 0 });
    doc.expectDocumented('createDeal', result);
  });

  test('updateDeal: the smallest and the fullest DealUpdate naming an existing deal', async () => {
    const created = await call(env.url, 'POST', '/api/v1/deals', { body: generate(doc, '#/components/schemas/DealInput', 'minimal', uniqueWord('gen')), cookie: adminCookie });
    expect(created.status, created.text).toBe(200);
    const { id } = (created.body as { deal: { id: string } }).deal;
    // The generated id names no deal: the one identifier a fuzzer must take from a real answer.
    const minimal = { ...generate(doc, '#/components/schemas/DealUpdate', 'minimal', uniqueWord('gen')), id };
    const full = { ...generate(doc, '#/components/schemas/DealUpdate', 'full', uniqueWord('gen')), id };
    expect(Object.keys(minimal)).toEqual(['id']);
    for (const body of [minimal, full]) {
      const check = doc.valid(doc.requestSchema('updateDeal'), body);
      expect(check.ok, check.errors).toBe(true);
      const result = await call(env.url, 'PUT', '/api/v1/deals', { body, cookie: adminCookie });
      expect(result.status, `${JSON.stringify(body)}: ${result.text}`).toBe(200);
      doc.expectDocumented('updateDeal', result);
      const deal = (result.body as { deal: Json }).deal;
      for (const [field, value] of Object.entries(body)) expect(deal[field], field).toEqual(value);
    }
  });

  test('the documented request examples are accepted as they are (ids of submissions taken from real ones)', async () => {
    const examples = (id: string) => Object.entries((doc.at(doc.requestSchema(id).replace(/\/schema$/, '/examples')) as Record<string, { value: Json }>) ?? {});
    for (const [name, { value }] of examples('createDeal')) {
      const result = await call(env.url, 'POST', '/api/v1/deals', { body: value, cookie: adminCookie });
      expect(result.status, `createDeal ${name}: ${result.text}`).toBe(200);
      doc.expectDocumented('createDeal', result);
    }
    for (const [name, { value }] of examples('updateDeal')) {
      const result = await call(env.url, 'PUT', '/api/v1/deals', { body: value, cookie: adminCookie });
      expect(result.status, `updateDeal ${name}: ${result.text}`).toBe(200);
      doc.expectDocumented('updateDeal', result);
    }
    const submitted: string[] = [];
    for (const [name, { value }] of [...examples('submitDeal'), ...examples('submitDeal')]) {
      const result = await callFrom(address(), env.url, 'POST', '/api/v1/submit-deal', { body: { ...value, company_name: `${String(value.company_name)} ${uniqueWord()}` }, origin: null });
      expect(result.status, `submitDeal ${name}: ${result.text}`).toBe(201);
      doc.expectDocumented('submitDeal', result);
      submitted.push((result.body as { id: string }).id);
    }
    for (const [id, path, submission] of [
      ['approveSubmission', '/api/v1/admin/submissions/approve', submitted[0]],
      ['rejectSubmission', '/api/v1/admin/submissions/reject', submitted[1]],
    ] as const) {
      for (const [name, { value }] of examples(id)) {
        const result = await call(env.url, 'POST', path, { body: { ...value, id: submission }, cookie: adminCookie });
        expect(result.status, `${id} ${name}: ${result.text}`).toBe(200);
        doc.expectDocumented(id, result);
      }
    }
    for (const [name, { value }] of examples('signIn')) {
      // The example's account does not exist here: a documented refusal, not a malformed request.
      const result = await call(env.url, 'POST', '/api/v1/auth/login', { body: value });
      expect(result.status, `signIn ${name}: ${result.text}`).toBe(401);
      doc.expectDocumented('signIn', result);
    }
  });
});

describe('headers: each one a response carries is documented on it', () => {
  test('reads, lookups, 304, errors, the /api alias', async () => {
    const list = await call(env.url, 'GET', '/api/v1/deals?limit=2');
    doc.expectDocumented('listOrSearchDeals', list);
    doc.expectDocumented('listOrSearchDeals', await call(env.url, 'GET', '/api/v1/deals?slug=stripe-atlas'));
    const revalidated = await call(env.url, 'GET', '/api/v1/deals?limit=2', { headers: { 'If-None-Match': list.headers.get('etag') ?? '' } });
    expect(revalidated.status).toBe(304);
    doc.expectDocumented('listOrSearchDeals', revalidated);
    doc.expectDocumented('listOrSearchDeals', await call(env.url, 'GET', '/api/v1/deals?slug=no-such-deal'));
    doc.expectDocumented('listOrSearchDeals', await call(env.url, 'GET', '/api/v1/deals?limit=0'));
    const alias = await call(env.url, 'GET', '/api/deals?limit=1');
    expect(alias.headers.get('link')).toContain('successor-version');
    doc.expectDocumented('listOrSearchDeals', alias);
    doc.expectDocumented('listStartups', await call(env.url, 'GET', '/api/v1/startups'));
    const wrongMethod = await call(env.url, 'POST', '/api/v1/startups', { body: {} });
    expect(wrongMethod.headers.get('allow')).not.toBeNull();
    doc.expectDocumented('listStartups', wrongMethod);
  });

  test('changes: 200, 304, 400 and the /api alias, as documented', async () => {
    const list = await call(env.url, 'GET', '/api/v1/changes?limit=2&kind=deal');
    expect(list.status).toBe(200);
    doc.expectDocumented('listChanges', list);
    const revalidated = await call(env.url, 'GET', '/api/v1/changes?limit=2&kind=deal', { headers: { 'If-None-Match': list.headers.get('etag') ?? '' } });
    expect(revalidated.status).toBe(304);
    doc.expectDocumented('listChanges', revalidated);
    for (const query of ['since=yesterday', 'since=abcdef12', 'limit=0', 'cursor=x']) doc.expectDocumented('listChanges', await call(env.url, 'GET', `/api/v1/changes?${query}`));
    doc.expectDocumented('listChanges', await call(env.url, 'GET', '/api/changes?limit=1'));
  });

  test('health: 200 with the details a local client gets, and 304', async () => {
    const health = await call(env.url, 'GET', '/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toHaveProperty('store');
    doc.expectDocumented('health', health);
    const again = await call(env.url, 'GET', '/api/v1/health', { headers: { 'If-None-Match': health.headers.get('etag') ?? '' } });
    if (again.status === 304) doc.expectDocumented('health', again);
    // The instance never answers 5xx for being degraded: it says so with 200.
    expect(Object.keys(doc.operation('health').op.responses as Json)).not.toContain('503');
  });

  test("a member's data: the export (200) and refused deletions (400, 403, a form's 303) are documented, bodies and headers", async () => {
    const exported = await call(env.url, 'GET', '/api/v1/me/export', { cookie: memberCookie });
    expect(exported.status, exported.text).toBe(200);
    doc.expectDocumented('exportMyData', exported);
    doc.expectDocumented('exportMyData', await call(env.url, 'GET', '/api/v1/me/export', { cookie: memberCookie, headers: { 'Sec-Fetch-Site': 'cross-site' } }));
    for (const body of [{}, { password: 'not the password' }]) doc.expectDocumented('deleteMyAccount', await call(env.url, 'POST', '/api/v1/me/delete', { cookie: memberCookie, body }));
    const form = await call(env.url, 'POST', '/api/v1/me/delete', { cookie: memberCookie, rawBody: 'password=', headers: { 'Content-Type': FORM } });
    expect(form.status).toBe(303);
    doc.expectDocumented('deleteMyAccount', form);
  });

  test('sign-in, session and sign-out (JSON and form), and a write', async () => {
    const signIn = await call(env.url, 'POST', '/api/v1/auth/login', { body: { email: MEMBER.email, password: MEMBER.password } });
    expect(signIn.headers.get('set-cookie')).not.toBeNull();
    doc.expectDocumented('signIn', signIn);
    doc.expectDocumented('currentSession', await call(env.url, 'GET', '/api/v1/auth/session', { cookie: memberCookie }));
    doc.expectDocumented('signOut', await call(env.url, 'POST', '/api/v1/auth/logout', { body: {} }));
    const form = await call(env.url, 'POST', '/api/v1/auth/logout', { rawBody: 'everywhere=false', headers: { 'Content-Type': FORM } });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).not.toBeNull();
    doc.expectDocumented('signOut', form);
    const word = uniqueWord();
    const created = await call(env.url, 'POST', '/api/v1/deals', {
      body: { title: `Headers ${word}`, provider: 'Acme', category: 'saas-discounts', applicationUrl: `https://acme.example/${word}` },
      cookie: adminCookie,
    });
    expect(created.headers.get('etag')).not.toBeNull();
    doc.expectDocumented('createDeal', created);
  });
});

describe('/api/mcp', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-rules', version: '1' } } };
  const mcp = (body: string, headers: Record<string, string>) => call(env.url, 'POST', '/api/mcp', { rawBody: body, origin: null, headers });

  test('only POST is documented, with the required Accept header and every refusal', () => {
    const item = (doc.doc.paths as Record<string, Json>)['/api/mcp'] as Json;
    expect(Object.keys(item).filter((k) => METHODS.includes(k))).toEqual(['post']);
    const { op } = doc.operation('mcp');
    const accept = (op.parameters as Json[]).find((p) => p.in === 'header' && p.name === 'Accept');
    expect(accept?.required).toBe(true);
    expect(doc.valid(`${doc.operation('mcp').pointer}/parameters/${(op.parameters as Json[]).indexOf(accept as Json)}/schema`, MCP_ACCEPT).ok).toBe(true);
    expect(Object.keys(op.responses as Json)).toEqual(expect.arrayContaining(['200', '202', '400', '406', '413', '415', '429']));
    expect(op.security).toEqual([]);
  });

  test('real answers: 200, 202, 400, 406, 413, 415 are documented, bodies and headers', async () => {
    const json = { 'Content-Type': 'application/json', Accept: MCP_ACCEPT };
    const cases: [number, string, Record<string, string>][] = [
      [200, JSON.stringify(initialize), json],
      [200, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), json],
      [200, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'no/such/method' }), json],
      [202, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), json],
      [400, '{not json', json],
      [400, JSON.stringify([initialize]), json],
      [400, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }), { ...json, 'Mcp-Protocol-Version': '1999-01-01' }],
      [406, JSON.stringify(initialize), { 'Content-Type': 'application/json', Accept: 'application/json' }],
      [413, JSON.stringify({ ...initialize, padding: 'x'.repeat(70 * 1024) }), json],
      [415, JSON.stringify(initialize), { 'Content-Type': 'text/plain', Accept: MCP_ACCEPT }],
    ];
    for (const [status, body, headers] of cases) {
      const result = await mcp(body, headers);
      expect(result.status, `${body.slice(0, 80)}: ${result.text.slice(0, 200)}`).toBe(status);
      doc.expectDocumented('mcp', result);
    }
  });

  test('the documented request examples are answered 200', async () => {
    const examples = doc.at(doc.requestSchema('mcp').replace(/\/schema$/, '/examples')) as Record<string, { value: Json }>;
    for (const [name, { value }] of Object.entries(examples)) {
      const result = await mcp(JSON.stringify(value), { 'Content-Type': 'application/json', Accept: MCP_ACCEPT });
      expect(result.status, `${name}: ${result.text.slice(0, 200)}`).toBe(200);
      expect(result.body).not.toHaveProperty('error');
      doc.expectDocumented('mcp', result);
    }
  });
});

describe('with a deprecated route', () => {
  let deprecated: WriteServer;
  let deprecatedDoc: Doc;
  beforeAll(async () => {
    deprecated = await startWriteServer([], { API_LIFECYCLE: JSON.stringify([DEPRECATION]) });
    deprecatedDoc = await fetchDoc(deprecated.url);
  });
  afterAll(async () => {
    await deprecated?.stop();
  });

  test('Deprecation and Sunset are defined, and on every answer of the deprecated operation only', () => {
    const headers = Object.keys((deprecatedDoc.doc.components as Json).headers as Json);
    expect(headers).toEqual(expect.arrayContaining(['Deprecation', 'Sunset']));
    for (const { id, op, pointer } of deprecatedDoc.operations()) {
      for (const status of Object.keys(op.responses as Json)) {
        const [, response] = deprecatedDoc.deref(`${pointer}/responses/${status}`);
        const names = Object.keys((response.headers as Json | undefined) ?? {});
        expect(names.includes('Deprecation') && names.includes('Sunset'), `${id} ${status}`).toBe(id === 'listStartups');
      }
    }
  });

  test("the deprecated route's answers carry the documented signals", async () => {
    for (const path of ['/api/v1/startups', '/api/v1/startups?minRevenue=abc', '/api/startups']) {
      const result = await call(deprecated.url, 'GET', path);
      expect(result.headers.get('deprecation'), path).toBe(`@${Date.parse(DEPRECATION.deprecatedAt) / 1000}`);
      expect(result.headers.get('sunset'), path).not.toBeNull();
      deprecatedDoc.expectDocumented('listStartups', result);
    }
    expect(takeErrors(deprecated.server)).toEqual([]);
  });
});

// --- generating a request body from the document ---

/**
 * A value for the schema at `pointer` as a fuzzer's positive case would be: `minimal` gives
 * only what is required, `full` every property. Enums give their first value (that is where a
 * catalog's category comes from), formats and patterns a value of their own made of `word`.
 * Null branches are never taken (a real deal's fields are kept).
 */
function generate(document: Doc, pointer: string, mode: 'minimal' | 'full', word: string): Json {
  return valueFor(document, document.deref(pointer)[1], mode, word) as Json;
}

function valueFor(document: Doc, schema: Json, mode: 'minimal' | 'full', word: string): unknown {
  if (typeof schema.$ref === 'string') return valueFor(document, document.deref(schema.$ref)[1], mode, word);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branches = ((schema.anyOf ?? schema.oneOf) as Json[] | undefined)?.filter((b) => b.type !== 'null' && (b.type !== undefined || b.$ref !== undefined || b.enum !== undefined));
  if (branches?.[0] && schema.type === undefined) return valueFor(document, branches[0], mode, word);
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      // An object-level anyOf of `required` branches (id or slug): the first branch's names count as required.
      const branchRequired = ((schema.anyOf as Json[] | undefined)?.[0]?.required ?? []) as string[];
      const required = new Set([...((schema.required ?? []) as string[]), ...branchRequired]);
      const names = mode === 'full' ? Object.keys(properties) : Object.keys(properties).filter((n) => required.has(n));
      return Object.fromEntries(names.map((name) => [name, valueFor(document, properties[name] as Json, mode, `${word}-${name.toLowerCase()}`)]));
    }
    case 'array':
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => valueFor(document, (schema.items ?? {}) as Json, mode, word));
    case 'boolean':
      return mode === 'full';
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'string':
      return stringFor(schema, word);
    default:
      throw new Error(`cannot generate ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

function stringFor(schema: Json, word: string): string {
  if (schema.format === 'date') return '2026-06-30';
  if (schema.format === 'uri') return `https://generated.example/${word}`;
  if (schema.format === 'email') return `${word}@generated.example`;
  const slugWord = word.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const candidates = [slugWord, `d-${slugWord}`, `Generated ${word}`, 'x'.repeat(Number(schema.minLength ?? 1))];
  const max = Number(schema.maxLength ?? Infinity);
  const min = Number(schema.minLength ?? 0);
  const found = candidates.map((c) => c.slice(0, max)).find((c) => c.length >= min && (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(c)));
  if (found === undefined) throw new Error(`no string for ${JSON.stringify(schema)}`);
  return found;
}
