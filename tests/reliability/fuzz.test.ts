/**
 * A fuzz of every route and every method on the real server: `scripts/serve.ts` as a child
 * process on a fresh git copy of the `valid` fixture (and the project's Astro build, when there
 * is one, so pages and static files answer too). 5,000 seeded requests: a sweep of every API
 * route (under `/api/v1` and the `/api` alias, `/api/mcp` included) and every document with
 * every common method, then random requests over API routes, documents, pages, unknown and
 * encoded paths and huge query strings, with random methods (PROPFIND and friends), headers
 * (Accept, Accept-Encoding, Content-Type, Origin, real, forged and garbage session cookies,
 * If-None-Match / If-Match, X-Forwarded-For …), bodies (valid, broken, deeply nested, larger
 * than the limit, wrong types, forms, binary, invalid UTF-8) and, over raw sockets, request
 * targets node:http refuses to send, bad framing and uploads cut short. A share of the requests
 * carries a real admin session, so the admin routes run past authentication and commit.
 *
 * Every answer: no 5xx (nor a dropped connection); every JSON error is the SPEC error object
 * (the MCP and A2A endpoints' JSON-RPC errors excepted: that protocol defines its own, checked as
 * JSON-RPC); every `/api` error the application answers is JSON; no error body shows a stack
 * trace, a file path or a library name; and the server logs no error.
 *
 * Reproduce a run with FUZZ_SEED=<seed> (printed on failure); FUZZ_REQUESTS changes the count.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { allowedMethods, API_ROUTES, documentRoute } from '../../functions/http/routes.ts';
import { seal } from '../../functions/auth/session.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { expectErrorBody } from '../helpers/api-schemas.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';
import { ADMIN, MEMBER, PROJECT_ROOT, addAccount, login } from '../helpers/writes-harness.ts';
import { seededRandom } from '../../scripts/seeded-random.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { astroBuild } from '../helpers/astro-build.ts';

const SEED = Number(process.env.FUZZ_SEED ?? '20261122');
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? '5000');
const CONCURRENCY = 6;
/** Every answer here takes well under a second; a request left this long is not being answered. */
const ANSWER_TIMEOUT_MS = 8_000;
/** Past this many broken rules the server is broken enough: stop and report. */
const STOP_AFTER_PROBLEMS = 60;
const TODAY = new Date().toISOString().slice(0, 10);
/** Known to the test, so it can forge properly signed sessions (expired, unknown account …). */
const SESSION_SECRET = 'fuzz-session-secret-5f1c0a9e7d3b';
const LEAVER = { email: 'fuzz-leaver@example.com', role: 'admin' as const, password: 'fuzz-leaver-password' };

let work: string;
let contentDir: string;
let generatedDir: string;
let dataDir: string;
let distDir: string;
let server: ChildServer;
let port: number;
let adminCookie: string;
/** A session of another admin, for sign-out requests. */
let leaverCookie: string;
let memberCookie: string;
let forgedCookies: string[];
const pool = { slugs: [] as string[], ids: [] as string[], created: [] as string[], submissions: [] as string[] };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-fuzz-'));
  contentDir = await gitContentCopy(join(FIXTURES, 'valid'), work);
  generatedDir = join(work, 'generated');
  dataDir = join(work, 'data');
  const deals = await buildContent();
  // Inside the project (git-ignored): the built server code resolves its packages from node_modules.
  distDir = join(PROJECT_ROOT, '.e2e', `fuzz-${process.pid}-${Date.now().toString(36)}`);
  await astroBuild(generatedDir, distDir);
  pool.slugs.push(...deals.map((d) => d.slug));
  pool.ids.push(...deals.map((d) => d.id));
  addAccount(dataDir, ADMIN);
  addAccount(dataDir, MEMBER);
  addAccount(dataDir, LEAVER);
  server = await startChildServer({
    contentDir,
    generatedDir,
    dataDir,
    env: {
      RATE_LIMITS: 'off',
      // X-Forwarded-For is then read (garbage included) and names the client for the limits.
      TRUST_PROXY_HOPS: '1',
      SESSION_SECRET,
      // The real site of this catalog: pages, twins, static files and live pages are fuzzed too.
      DIST_DIR: distDir,
    },
  });
  port = Number(new URL(server.url).port);
  adminCookie = await login(server.url, ADMIN);
  leaverCookie = await login(server.url, LEAVER);
  memberCookie = await login(server.url, MEMBER);
  forgedCookies = forgeCookies();
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
  if (distDir) await rm(distDir, { recursive: true, force: true });
});

/** Build the content tree as `npm start` would before serving. */
async function buildContent(): Promise<Deal[]> {
  return (await buildGenerated(contentDir, generatedDir, TODAY)).deals;
}

// --- what is requested ---

/** Route paths below `/api/v1` with their methods, from the route table. */
const ROUTE_METHODS = new Map(API_ROUTES.map((route) => [route.path, allowedMethods(route)]));
const API_PATHS = [...ROUTE_METHODS.keys()];
const DOCUMENTS = [
  '/llms.txt',
  '/llms-full.txt',
  '/openapi.json',
  '/sitemap.xml',
  '/robots.txt',
  '/.well-known/api-catalog',
  '/.well-known/agent-card.json',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/api/v1',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/.well-known/jwks.json',
  '/changes.atom',
];
const PAGES = [
  '/',
  '/deals/',
  '/deals/⟦SLUG⟧/',
  '/deals/⟦SLUG⟧',
  '/deals/search',
  '/deals/search/',
  '/programs/',
  '/startups/',
  '/startups/formbird/',
  '/startups/search',
  '/submit/',
  '/submit/thanks/',
  '/about/',
  '/categories/cloud-credits/',
  '/categories/nope/',
  '/login',
  '/login/',
  '/admin/',
  '/admin/submissions/',
  '/admin/deal/',
  '/account/saved/',
  '/account/billing/',
  '/favicon.svg',
  '/index.md',
  '/deals/index.md',
  '/404.html',
  '/404',
  '/_astro/missing.js',
];
const ODD_PATHS = [
  '/api',
  '/api/',
  '/api/v1',
  '/api/v1/',
  '/api/v2/deals',
  '/api/v0/deals',
  '/API/v1/deals',
  '/api/V1/deals',
  '/api/v1/DEALS',
  '//api/v1/deals',
  '/api/v1//deals',
  '/api//deals',
  '/api/v1/deals/',
  '/api/deals/',
  '/api/v1/deals/x',
  '/api/v1/./deals',
  '/api/v1/deals/.',
  '/api/v1/../v1/deals',
  '/api/v1/%2e%2e/deals',
  '/api/v1/%2E%2E/%2E%2E/package.json',
  '/api/%2e%2e/%2e%2e/etc/passwd',
  '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  '/..%2f..%2f..%2fetc%2fpasswd',
  '/..%252f..%252fetc%252fpasswd',
  '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  '/%c0%af',
  '/%e0%80%ae%e0%80%ae/',
  '/api/v1/deals%00',
  '/api/v1/deals%00.json',
  '/llms.txt%00',
  '/%00',
  '/api/v1/%ff',
  '/deals/%ff%fe/',
  '/deals/%E0%A4%A/',
  '/api/v1/deals%2F',
  '/api/v1%2Fdeals',
  '/api/v1/deals;x=1',
  '/api/v1/deals%3Fslug=x',
  '/api/v1/deals%23x',
  '/llms.txt/',
  '/llms.txt.',
  '/LLMS.TXT',
  '/robots.txt/..',
  '/.well-known/',
  '/.well-known/../package.json',
  '/.well-known/%2e%2e/package.json',
  '/.well-known/security.txt',
  '/.git/config',
  '/.env',
  '/.data/users.json',
  '/.data/database.sqlite',
  '/package.json',
  '/node_modules/.package-lock.json',
  '/_astro/../../package.json',
  '/_internal/metrics',
  '/_internal/metrics/',
  '/server/entry.mjs',
  '/client/index.html',
  '/a'.repeat(400),
  `/${'%2e%2e/'.repeat(50)}etc/passwd`,
  '/%',
  '/%%',
  '/%2',
  '/~',
  '/*',
  '/index.html',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];
const ODD_METHODS = http.METHODS.filter((m) => m !== 'CONNECT' && !METHODS.includes(m));
const ALL_PARAMS = [
  'search',
  'category',
  'status',
  'slug',
  'id',
  'ids',
  'featured',
  'recommended',
  'limit',
  'scope',
  'minRevenue',
  'maxRevenue',
  'country',
  'source',
  'forSale',
  'q',
  'error',
  'field',
  'page',
  'code',
  'state',
];
const MEANINGFUL = [
  'true',
  'false',
  'all',
  'active',
  'expired',
  'coming-soon',
  'limited',
  'deals',
  'programs',
  'pending',
  'approved',
  'rejected',
  'cloud-credits',
  'saas-discounts',
  'accelerators',
  'saas',
  'ecommerce',
  'acquire',
  'direct',
  'US',
  'gb',
  'aws',
  'cloud credits',
  'cr',
  'the',
  'Zürich',
  '0',
  '1',
  '5',
  '5000',
  '5001',
  '-1',
  '184000',
  '1.5',
  '1e3',
  '0x10',
  ' 7',
  '',
  '⟦SLUG⟧',
  '⟦ID⟧',
  '⟦SUB⟧',
  '⟦CREATED⟧',
];
const LUNR_SYNTAX = ['aws:', 'title:aws', 'foo^', 'cloud^10', '~2', 'aws~1', '+aws', '-aws', 'aw*', '*', '*aws*', ':', '^', '~', '"', '\\', '(aws)'];
const PERCENT = ['%', '%2', '%ZZ', '%00', '%FF', '%C3', '%E0%A4%A', '%C3%BC', '%25', '%2B', '%26', '%3D', '%F0%9F%98%80', '%ED%A0%80', '%C0%AE'];

/** Text node:http puts in a request target as it is (no space, no control, nothing above U+00FF). */
const rawTargetText = fc.string({ unit: fc.constantFrom(...Array.from('abcAZ09-_.~!$&\'()*+,;=:@/?#%^[]{}|<>"`')), maxLength: 30 });
/** Text only a raw socket can send in a target: spaces, tabs, raw UTF-8. */
const socketOnlyText = fc.string({ unit: fc.constantFrom(...Array.from('a é東😀\t\u007f')), minLength: 1, maxLength: 12 });

const queryValue = fc.oneof(
  { arbitrary: fc.constantFrom(...MEANINGFUL).map((v) => (v.startsWith('⟦') ? v : encodeURIComponent(v))), weight: 6 },
  { arbitrary: fc.constantFrom(...LUNR_SYNTAX).map(encodeURIComponent), weight: 2 },
  { arbitrary: fc.constantFrom(...PERCENT), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => encodeURIComponent(s.toWellFormed())), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => encodeURIComponent(s)), weight: 2 },
  { arbitrary: rawTargetText, weight: 2 },
  { arbitrary: fc.integer().map(String), weight: 2 },
  { arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String), weight: 1 },
);
const queryKey = fc.oneof(
  { arbitrary: fc.constantFrom(...ALL_PARAMS), weight: 8 },
  { arbitrary: fc.constantFrom(...ALL_PARAMS).map((n) => n.toUpperCase()), weight: 1 },
  { arbitrary: fc.constantFrom('', '%', 'lim%69t', 'search[]', 'foo', 'utm_source', '__proto__', 'constructor', 'slug%00'), weight: 1 },
  { arbitrary: rawTargetText, weight: 1 },
);
const query = fc.oneof(
  { arbitrary: fc.constant(''), weight: 10 },
  {
    arbitrary: fc.array(fc.tuple(queryKey, queryValue, fc.boolean()), { minLength: 1, maxLength: 8 }).map((pairs) => `?${pairs.map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`)).join('&')}`),
    weight: 12,
  },
  // Raw spaces, tabs and UTF-8 in the query: only a raw socket sends those.
  { arbitrary: fc.tuple(queryKey, socketOnlyText).map(([k, v]) => `?${k}=${v}`), weight: 1 },
  // The same key many times.
  { arbitrary: fc.tuple(fc.constantFrom(...ALL_PARAMS), fc.array(queryValue, { minLength: 2, maxLength: 30 })).map(([k, vs]) => `?${vs.map((v) => `${k}=${v}`).join('&')}`), weight: 2 },
  // Huge query strings: up to ~15 KB fit in node's 16 KB header limit, beyond that node answers 431 itself.
  {
    arbitrary: fc
      .tuple(fc.constantFrom('search', 'slug', 'category', 'x', 'ids'), fc.integer({ min: 2_000, max: 20_000 }), fc.constantFrom('a', 'aws+', '%20', '%C3%BC', 'x,', '&k='))
      .map(([k, n, unit]) => `?${k}=${unit.repeat(Math.ceil(n / unit.length))}`),
    weight: 2,
  },
);

type Body = { text: string } | { bytes: number[] } | { deep: number; wrap: 'array' | 'object'; in: 'deal' | 'put' | 'bare' | 'submission' | 'mcp' | 'login' } | { huge: true };

const anyJson = fc.jsonValue({ maxDepth: 3 });
const someText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.toWellFormed()),
);
const json = (value: unknown): Body => ({ text: JSON.stringify(value) });

/** Bytes that are not UTF-8: lone continuation bytes, overlong forms, surrogates, 0xFF. */
const INVALID_UTF8 = [[0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xc0, 0xae], [0xe0, 0x80, 0xae], [0xed, 0xa0, 0x80], [0x80], [0xc3], [0xf4, 0x90, 0x80, 0x80]];
const invalidUtf8Json = fc
  .tuple(fc.constantFrom('title', 'company_name', 'email', 'reason', 'slug'), fc.constantFrom(...INVALID_UTF8), fc.constantFrom(...INVALID_UTF8))
  .map(([key, a, b]): Body => ({ bytes: [...Buffer.from(`{"${key}":"x`), ...a, ...Buffer.from('y'), ...b, ...Buffer.from('"}')] }));

const genericBody: fc.Arbitrary<Body> = fc.oneof(
  {
    arbitrary: fc
      .constantFrom(
        '',
        ' ',
        '{',
        '}',
        '{"a":',
        '[1,2',
        'nul',
        'null',
        'true',
        '[]',
        '{}',
        '"s"',
        '1e999',
        '-0',
        '{"a":1}garbage',
        '\uFEFF{}',
        '{"a":1,"a":2}',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"role":"admin"}}}',
        '\u0000',
        '{"a":"\\ud800"}',
        '{"a":"\\u0000"}',
        '[{"deals":[]}]',
      )
      .map((text): Body => ({ text })),
    weight: 5,
  },
  { arbitrary: anyJson.map(json), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((s): Body => ({ text: s.toWellFormed() })), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 300 }).map((b): Body => ({ bytes: [...b] })), weight: 2 },
  { arbitrary: invalidUtf8Json, weight: 2 },
  { arbitrary: fc.array(fc.tuple(queryKey, queryValue), { maxLength: 6 }).map((pairs): Body => ({ text: pairs.map(([k, v]) => `${k}=${v}`).join('&') })), weight: 2 },
  { arbitrary: fc.tuple(fc.integer({ min: 50, max: 40_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([deep, wrap]): Body => ({ deep, wrap, in: 'bare' })), weight: 1 },
  { arbitrary: fc.constant<Body>({ huge: true }), weight: 1 },
);

const DEAL_STATUSES = ['active', 'expired', 'coming-soon', 'limited'];
const validDealExtras = fc.record(
  {
    status: fc.constantFrom(...DEAL_STATUSES),
    featured: fc.boolean(),
    recommended: fc.boolean(),
    verified: fc.boolean(),
    tags: fc.array(fc.constantFrom('aws', 'cloud', 'fuzz', 'credits'), { maxLength: 4 }),
    difficulty: fc.constantFrom('easy', 'medium', 'hard'),
    expiryDate: fc.constantFrom('2027-01-01', '2031-12-31'),
    description: fc.constantFrom('Fuzzed deal description.', 'Credits for fuzzing.'),
    eligibility: fc.array(fc.constantFrom('Pre-seed', 'Fewer than 50 employees'), { maxLength: 2 }),
    value: fc.constantFrom('$1,000 in credits', '50% off'),
    slug: fc.constant('fuzz-⟦WORD⟧-slug'),
  },
  { requiredKeys: [] },
);
const badValue = fc.oneof(fc.constantFrom<unknown>(null, '', 0, -1, 1e308, true, [], {}, 'javascript:alert(1)', 'not a url', '2026-13-45', 'Bad Slug!', 'x'.repeat(5000), '⟦SLUG⟧'), anyJson, someText);
const DEAL_FIELDS = [
  'title',
  'provider',
  'category',
  'applicationUrl',
  'status',
  'featured',
  'recommended',
  'verified',
  'tags',
  'eligibility',
  'requirements',
  'difficulty',
  'expiryDate',
  'lastUpdated',
  'slug',
  'id',
  'providerWebsite',
  'logoUrl',
  'value',
  'savings',
  'subcategory',
  'description',
  'shortDescription',
  'timeToApply',
  'zzz',
  '__proto__',
];
const minimalDeal = { title: 'Fuzz ⟦WORD⟧ credits', provider: 'Fuzz Cloud', category: 'cloud-credits', applicationUrl: 'https://fuzz.example/apply' };
const dealInput = fc.oneof(
  { arbitrary: fc.constant<Record<string, unknown>>(minimalDeal), weight: 3 },
  { arbitrary: validDealExtras.map((extras): Record<string, unknown> => ({ ...minimalDeal, ...extras })), weight: 4 },
  {
    arbitrary: fc
      .tuple(fc.subarray(Object.keys(minimalDeal)), fc.dictionary(fc.constantFrom(...DEAL_FIELDS), badValue, { maxKeys: 3 }))
      .map(([keep, bad]): Record<string, unknown> => ({ ...Object.fromEntries(keep.map((k) => [k, minimalDeal[k as keyof typeof minimalDeal]])), ...bad })),
    weight: 3,
  },
);
const dealsBody: fc.Arbitrary<Body> = fc.oneof(
  { arbitrary: dealInput.map(json), weight: 10 },
  { arbitrary: fc.array(dealInput, { maxLength: 5 }).map((deals) => json({ deals })), weight: 2 },
  { arbitrary: fc.constantFrom<unknown>({ deals: [] }, { deals: 'x' }, { deals: [1, null] }, { deals: [minimalDeal, minimalDeal] }, { deals: {} }).map(json), weight: 1 },
  { arbitrary: fc.constant('title=Fuzz+⟦WORD⟧+form&provider=Form&category=cloud-credits&applicationUrl=https%3A%2F%2Fform.example').map((text): Body => ({ text })), weight: 1 },
  { arbitrary: fc.tuple(fc.integer({ min: 50, max: 30_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([deep, wrap]): Body => ({ deep, wrap, in: 'deal' })), weight: 1 },
  { arbitrary: genericBody, weight: 2 },
);
const putBody: fc.Arbitrary<Body> = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom<Record<string, unknown>>({ slug: '⟦SLUG⟧' }, { id: '⟦ID⟧' }, { id: '⟦ID⟧', slug: 'fuzz-⟦WORD⟧-renamed' }, { slug: 'no-such-deal' }, { id: 5 }, { slug: '' }, {}),
        fc.dictionary(fc.constantFrom(...DEAL_FIELDS.filter((f) => f !== 'slug' && f !== 'id')), fc.oneof(badValue, fc.constantFrom<unknown>('Fuzz renamed', 'active', true, ['x'])), { maxKeys: 3 }),
      )
      .map(([who, changes]) => json({ ...changes, ...who })),
    weight: 8,
  },
  { arbitrary: fc.tuple(fc.integer({ min: 50, max: 30_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([deep, wrap]): Body => ({ deep, wrap, in: 'put' })), weight: 1 },
  { arbitrary: genericBody, weight: 3 },
);
const validSubmission = {
  company_name: 'Fuzz ⟦WORD⟧ Inc',
  website_url: 'https://fuzz.example',
  benefit_description: 'Twelve months of fuzzing credits for early teams.',
  category: 'cloud',
  deal_value: '$1,000',
  redemption_link: 'https://fuzz.example/redeem',
};
const SUBMISSION_FIELDS = [...Object.keys(validSubmission), 'redemption_method', 'is_exclusive', 'submitter_email', 'logo_url', 'zzz'];
const submissionBody: fc.Arbitrary<Body> = fc.oneof(
  { arbitrary: fc.constant(json(validSubmission)), weight: 3 },
  {
    arbitrary: fc
      .dictionary(fc.constantFrom(...SUBMISSION_FIELDS), fc.oneof(badValue, fc.constantFrom<unknown>('code', 'link', 'other', 'a@b.co', 'not-an-email', false)), { minKeys: 1, maxKeys: 3 })
      .map((bad) => json({ ...validSubmission, ...bad })),
    weight: 4,
  },
  { arbitrary: fc.constant<Body>({ text: new URLSearchParams({ ...validSubmission, is_exclusive: 'on' }).toString() }), weight: 1 },
  { arbitrary: fc.tuple(fc.integer({ min: 50, max: 30_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([deep, wrap]): Body => ({ deep, wrap, in: 'submission' })), weight: 1 },
  { arbitrary: genericBody, weight: 3 },
);
const loginBody: fc.Arbitrary<Body> = fc.oneof(
  {
    arbitrary: fc
      .record(
        {
          email: fc.oneof(fc.constantFrom<unknown>(ADMIN.email, MEMBER.email, 'ghost@example.com', 'ADA@EXAMPLE.COM', ''), badValue),
          password: fc.oneof(fc.constantFrom<unknown>('wrong-password', ADMIN.password, ''), badValue),
        },
        { requiredKeys: [] },
      )
      .map(json),
    weight: 6,
  },
  { arbitrary: fc.constantFrom(`email=${encodeURIComponent(ADMIN.email)}&password=wrong`, 'email=&password=', 'email=a%40b.co&password=x&password=y').map((text): Body => ({ text })), weight: 1 },
  { arbitrary: fc.tuple(fc.integer({ min: 50, max: 8_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([deep, wrap]): Body => ({ deep, wrap, in: 'login' })), weight: 1 },
  { arbitrary: genericBody, weight: 3 },
);
const approveBody: fc.Arbitrary<Body> = fc.oneof(
  {
    arbitrary: fc
      .record(
        {
          id: fc.oneof(fc.constantFrom<unknown>('⟦SUB⟧', '⟦SUB⟧', 'sub-nonexistent', ''), badValue),
          status: fc.oneof(fc.constantFrom<unknown>(...DEAL_STATUSES), badValue),
          category: fc.oneof(fc.constantFrom<unknown>('cloud-credits', 'accelerators', 'nope'), badValue),
          slug: fc.oneof(fc.constantFrom<unknown>('fuzz-⟦WORD⟧-approved', 'Bad Slug', '⟦SLUG⟧'), badValue),
          title: fc.oneof(fc.constantFrom<unknown>('Approved ⟦WORD⟧'), badValue),
        },
        { requiredKeys: ['id'] },
      )
      .map(json),
    weight: 6,
  },
  { arbitrary: genericBody, weight: 2 },
);
const rejectBody: fc.Arbitrary<Body> = fc.oneof(
  {
    arbitrary: fc
      .record(
        { id: fc.oneof(fc.constantFrom<unknown>('⟦SUB⟧', 'sub-nonexistent'), badValue), reason: fc.oneof(fc.constantFrom<unknown>('Spam.', '', '   ', 'x'.repeat(3000)), badValue) },
        { requiredKeys: [] },
      )
      .map(json),
    weight: 6,
  },
  { arbitrary: genericBody, weight: 2 },
);
const mcpMessage = fc.oneof(
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.nat(),
    method: fc.constant('initialize'),
    params: fc.record({
      protocolVersion: fc.constantFrom('2025-06-18', '2025-11-25', '2024-11-05', '1999-01-01', ''),
      capabilities: fc.constant({}),
      clientInfo: fc.constant({ name: 'fuzz', version: '1.0.0' }),
    }),
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.nat(), fc.string({ maxLength: 8 })),
    method: fc.constantFrom('tools/list', 'resources/list', 'prompts/list', 'ping', 'resources/templates/list', 'completion/complete', 'logging/setLevel', 'nope/nope'),
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.nat(),
    method: fc.constant('tools/call'),
    params: fc.record({
      name: fc.constantFrom('search_deals', 'get_site_info', 'list_categories', 'no_such_tool', ''),
      arguments: fc.oneof(
        fc.record(
          {
            query: fc.oneof(someText, badValue),
            limit: fc.oneof(fc.integer({ min: -5, max: 100 }), badValue),
            category: fc.oneof(fc.constantFrom('cloud-credits', 'nope'), badValue),
            status: fc.oneof(fc.constantFrom('all', 'active'), badValue),
            scope: fc.oneof(fc.constantFrom('all', 'programs'), badValue),
            featured: fc.oneof(fc.boolean(), badValue),
          },
          { requiredKeys: [] },
        ),
        badValue,
      ),
    }),
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.nat(),
    method: fc.constant('resources/read'),
    params: fc.record({ uri: fc.oneof(fc.constantFrom('llms.txt', '/llms.txt', '⟦ORIGIN⟧/llms.txt', '⟦ORIGIN⟧/llms-full.txt', '⟦ORIGIN⟧/sitemap.xml', 'file:///etc/passwd'), someText) }),
  }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constantFrom('notifications/initialized', 'notifications/cancelled') }),
  fc.constantFrom<unknown>(
    { jsonrpc: '1.0', id: 1, method: 'ping' },
    { id: 1 },
    { jsonrpc: '2.0', id: null, method: 'ping' },
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: 1, method: 5 },
  ),
);
const mcpBody: fc.Arbitrary<Body> = fc.oneof(
  { arbitrary: mcpMessage.map(json), weight: 8 },
  { arbitrary: fc.array(mcpMessage, { maxLength: 4 }).map(json), weight: 1 },
  { arbitrary: fc.tuple(fc.integer({ min: 50, max: 30_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([deep, wrap]): Body => ({ deep, wrap, in: 'mcp' })), weight: 1 },
  { arbitrary: genericBody, weight: 3 },
);

function bodyFor(route: string | undefined, method: string): fc.Arbitrary<Body | undefined> {
  const own =
    route === '/deals'
      ? method === 'PUT' || method === 'PATCH'
        ? putBody
        : dealsBody
      : route === '/submit-deal'
        ? submissionBody
        : route === '/auth/login'
          ? loginBody
          : route === '/admin/submissions/approve'
            ? approveBody
            : route === '/admin/submissions/reject'
              ? rejectBody
              : route === '/mcp'
                ? mcpBody
                : genericBody;
  // Methods that carry a body get one most of the time; the others now and then.
  return present(own, ['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method) ? 15 : 88);
}

type CookieChoice = 'none' | 'admin' | 'member' | `forged${number}` | `garbage:${string}`;
const GARBAGE_COOKIES = [
  'deals_session=',
  'deals_session',
  'deals_session=a.b.c',
  'deals_session=.',
  'deals_session=%ZZ',
  '=;=;;',
  'a=b; deals_session; c',
  `deals_session=${'A'.repeat(6000)}.${'B'.repeat(40)}`,
  'deals_session=eyJleHAiOjk5OTk5OTk5OTl9.',
  'deals_session=bnVsbA.bnVsbA',
  'oidc_flow=x; deals_session=y',
  'deals_session=\u00ff\u00fe',
  'deals_session=⟦ADMINVALUE⟧x',
  'deals_session=x; deals_session=⟦ADMINVALUE⟧',
];
const cookieChoice: fc.Arbitrary<CookieChoice> = fc.oneof(
  { arbitrary: fc.constant<CookieChoice>('none'), weight: 25 },
  { arbitrary: fc.constant<CookieChoice>('admin'), weight: 40 },
  { arbitrary: fc.constant<CookieChoice>('member'), weight: 8 },
  { arbitrary: fc.integer({ min: 0, max: 9 }).map((n): CookieChoice => `forged${n}`), weight: 14 },
  { arbitrary: fc.constantFrom(...GARBAGE_COOKIES).map((g): CookieChoice => `garbage:${g}`), weight: 13 },
);

/** `arb` in `percent` % of the cases, else undefined. */
function present<T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> {
  if (percent <= 0) return fc.constant(undefined);
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 100 - percent }, { arbitrary: arb, weight: percent });
}
/** Header values node:http will send: printable Latin-1 (bytes 0x80–0xFF go out as they are). */
const headerGarbage = fc.oneof(
  fc.constantFrom('', ' ', ';;;', ',,,', 'q=', '*/*;q=abc', 'x'.repeat(4000), '\u00ff\u00c3\u0028', '"unterminated', 'a, b;q=0.5, c;q=NaN, d;q=1e999, e;q=-1'),
  fc.string({ unit: fc.constantFrom(...Array.from('abcxyz09 ;=,*/."-\t')), maxLength: 40 }),
);
const headers = (route: string | undefined, method: string) =>
  fc.record({
    accept: present(
      fc.oneof(
        fc.constantFrom(
          'application/json',
          'text/markdown',
          'text/markdown, text/html;q=0.9',
          'text/html',
          'text/html, text/markdown;q=1',
          'text/x-markdown',
          '*/*',
          'text/markdown;q=0',
          'application/json, text/event-stream',
          'text/event-stream',
          'text/html,application/xhtml+xml,*/*;q=0.8',
        ),
        headerGarbage,
      ),
      route === '/mcp' ? 90 : 40,
    ),
    acceptEncoding: present(
      fc.oneof(
        fc.constantFrom(
          'br',
          'gzip',
          'gzip, br',
          'gzip, deflate, br, zstd',
          'br;q=0, gzip;q=1',
          'gzip;q=0, br;q=0.1',
          '*',
          '*;q=0',
          'identity',
          'identity;q=0',
          'br;q=abc',
          'gzip;q=1e999',
          'br;q=-1',
          'deflate',
          'zstd',
          'x-gzip',
        ),
        headerGarbage,
      ),
      50,
    ),
    contentType: present(
      fc.oneof(
        { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8'), weight: 10 },
        {
          arbitrary: fc.constantFrom(
            'application/x-www-form-urlencoded',
            'text/plain',
            'multipart/form-data; boundary=x',
            'application/merge-patch+json',
            'application/JSON',
            'application/json; charset=x-unknown',
            'application/octet-stream',
            'text/html',
          ),
          weight: 4,
        },
        { arbitrary: headerGarbage, weight: 1 },
      ),
      ['GET', 'HEAD', 'OPTIONS'].includes(method) ? 20 : 85,
    ),
    origin: present(
      fc.constantFrom(
        '⟦ORIGIN⟧',
        '⟦ORIGIN⟧',
        '⟦ORIGIN⟧',
        '⟦ORIGIN⟧',
        '⟦ORIGIN⟧',
        '⟦ORIGIN⟧',
        '⟦ORIGIN⟧',
        '⟦ORIGIN⟧',
        'https://evil.example',
        'null',
        'not a url',
        'http://127.0.0.1',
        'http://localhost:⟦PORT⟧',
        'http://127.0.0.1:⟦PORT⟧.evil.example',
        'file://',
        '',
      ),
      60,
    ),
    secFetchSite: present(fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none', 'garbage'), 10),
    cookie: cookieChoice,
    ifNoneMatch: present(fc.oneof(fc.constantFrom('*', '"x"', 'W/"x"', '"', 'garbage', '"a", W/"b", *', ',,,', '""'), headerGarbage), 10),
    ifMatch: present(fc.oneof(fc.constantFrom('*', '"x"', 'W/"x"', '"', 'garbage', '"a", "b"', ' * '), headerGarbage), 10),
    forwardedFor: present(
      fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 40 }).map((n) => `203.0.113.${n}`), weight: 6 },
        { arbitrary: fc.constantFrom('', 'unknown', '::1', '999.999.1.1', '1.2.3.4, evil', ',,,', ' , ', 'a'.repeat(2000), '203.0.113.1, 198.51.100.2, 192.0.2.3'), weight: 2 },
        { arbitrary: headerGarbage, weight: 1 },
      ),
      35,
    ),
    forwardedProto: present(fc.constantFrom('https', 'http', 'https, http', 'garbage', ''), 5),
    requestId: present(fc.constantFrom('', 'x'.repeat(100), 'has space', 'ünï', '../../etc'), 5),
    acrm: present(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PROPFIND', 'get', ''), method === 'OPTIONS' ? 70 : 0),
    mcpVersion: present(fc.constantFrom('2025-06-18', '2025-11-25', '2024-11-05', 'garbage', ''), route === '/mcp' ? 50 : 0),
    mcpSession: present(fc.constantFrom('abc', '', 'x'.repeat(300)), route === '/mcp' ? 20 : 0),
    hubSignature: present(fc.constantFrom('sha256=00', 'sha256=', 'garbage'), route === '/hooks/content' ? 50 : 0),
    host: present(fc.constantFrom('evil.example', 'localhost', 'localhost:⟦PORT⟧', '[::1]:⟦PORT⟧', '127.0.0.1:99999', 'a b', ''), 3),
    expect: present(fc.constantFrom('100-continue', 'garbage-expectation'), 2),
    contentEncoding: present(fc.constantFrom('gzip', 'br', 'garbage'), 3),
    range: present(fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=garbage', 'lines=1-2'), 3),
    acceptLanguage: present(headerGarbage, 3),
    userAgent: present(headerGarbage, 5),
  });

type RequestHeaders = ReturnType<typeof headers> extends fc.Arbitrary<infer H> ? H : never;

type Transport = 'keepalive' | 'fresh' | 'chunked' | 'raw';
type Framing = 'ok' | 'cl-short' | 'abort' | 'cl-long' | 'bad-chunk' | 'cl-and-te' | 'dup-cl' | 'no-host' | 'http10' | 'garbage-line' | 'obs-fold';
const framing = fc.oneof(
  { arbitrary: fc.constant<Framing>('ok'), weight: 8 },
  { arbitrary: fc.constantFrom<Framing>('cl-short', 'abort', 'cl-long', 'bad-chunk', 'cl-and-te', 'dup-cl', 'no-host', 'http10', 'garbage-line', 'obs-fold'), weight: 10 },
);

interface Spec {
  method: string;
  target: string;
  /** The route below /api/v1 when the target names one (for the body it gets). */
  route: string | undefined;
  transport: Transport;
  framing: Framing;
  headers: RequestHeaders;
  body: Body | undefined;
}

/** One request for a given target (path with placeholders, without query) and method. */
function requestTo(path: string, route: string | undefined, method: string): fc.Arbitrary<Spec> {
  const deleteQuery = fc.constantFrom('?slug=⟦CREATED⟧', '?slug=⟦CREATED⟧', '?id=⟦ID⟧', '?ids=⟦ID⟧,⟦ID⟧,nope', '?slug=no-such-deal', '?slug=⟦SLUG⟧', '', '?slug=', '?ids=,,,');
  const q = route === '/deals' && method === 'DELETE' ? fc.oneof({ arbitrary: deleteQuery, weight: 3 }, { arbitrary: query, weight: 1 }) : query;
  return fc
    .record({
      query: q,
      transport: fc.constantFrom<Transport>('keepalive', 'keepalive', 'keepalive', 'keepalive', 'keepalive', 'keepalive', 'keepalive', 'fresh', 'fresh', 'chunked', 'raw'),
      framing,
      headers: headers(route, method),
      body: bodyFor(route, method),
    })
    .map(({ query: qs, transport, framing: f, headers: h, body }) => {
      const target = `${path}${qs}`;
      // node:http refuses targets with spaces, controls or characters above U+00FF: those go raw.
      const sendable = /^[\u0021-\u007e]*$/.test(target.replace(/⟦[A-Z]+⟧/g, 'x'));
      const t: Transport = sendable ? (transport === 'chunked' && body === undefined ? 'keepalive' : transport) : 'raw';
      return { method, target, route, transport: t, framing: t === 'raw' ? f : 'ok', headers: h, body };
    });
}

const methodFor = (own: readonly string[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...own), weight: 14 }, { arbitrary: fc.constantFrom(...METHODS), weight: 5 }, { arbitrary: fc.constantFrom(...ODD_METHODS), weight: 1 });

/** Routes with more to them get more requests. */
const ROUTE_WEIGHTS: Record<string, number> = {
  '/deals': 40,
  '/startups': 8,
  '/submit-deal': 8,
  '/mcp': 8,
  '/auth/login': 4,
  '/admin/submissions': 3,
  '/admin/submissions/approve': 5,
  '/admin/submissions/reject': 4,
};
const apiRequest = fc
  .tuple(
    fc.oneof(...API_PATHS.map((route) => ({ arbitrary: fc.constant(route), weight: ROUTE_WEIGHTS[route] ?? 2 }))),
    fc.constantFrom('/api/v1', '/api/v1', '/api/v1', '/api'),
    fc.constantFrom('', '', '', '', '', '/'),
  )
  .chain(([route, prefix, slash]) => methodFor(ROUTE_METHODS.get(route) ?? ['GET']).chain((method) => requestTo(`${prefix}${route}${slash}`, route, method)));
const documentRequest = fc.constantFrom(...DOCUMENTS).chain((path) => methodFor(['GET', 'HEAD', 'OPTIONS']).chain((method) => requestTo(path, undefined, method)));
const pageRequest = fc.constantFrom(...PAGES).chain((path) => methodFor(['GET', 'HEAD']).chain((method) => requestTo(path, undefined, method)));
const oddRequest = fc
  .oneof(
    { arbitrary: fc.constantFrom(...ODD_PATHS), weight: 6 },
    { arbitrary: fc.tuple(fc.constantFrom('/api/v1/', '/api/', '/', '/deals/', '/.well-known/'), rawTargetText).map(([a, b]) => a + b.replace(/[?#]/g, '')), weight: 3 },
    { arbitrary: fc.tuple(fc.constantFrom('/api/v1/', '/deals/', '/'), socketOnlyText).map(([a, b]) => a + b), weight: 1 },
  )
  .chain((path) => methodFor(['GET', 'HEAD', 'POST']).chain((method) => requestTo(path, undefined, method)));
/** Writes with the admin session (and submissions from many addresses), so the write paths commit often. */
const writeRequest = fc
  .tuple(
    fc.constantFrom<[string, string]>(
      ['/deals', 'POST'],
      ['/deals', 'POST'],
      ['/deals', 'POST'],
      ['/deals', 'PUT'],
      ['/deals', 'PUT'],
      ['/deals', 'DELETE'],
      ['/admin/submissions/approve', 'POST'],
      ['/admin/submissions/reject', 'POST'],
      ['/submit-deal', 'POST'],
      ['/submit-deal', 'POST'],
    ),
    fc.constantFrom('/api/v1', '/api'),
    fc.integer({ min: 1, max: 250 }),
  )
  .chain(([[route, method], prefix, address]) =>
    requestTo(`${prefix}${route}`, route, method).map((spec) =>
      route === '/submit-deal' ? { ...spec, headers: { ...spec.headers, forwardedFor: `198.51.100.${address}` } } : { ...spec, headers: { ...spec.headers, cookie: 'admin' as CookieChoice } },
    ),
  );
const anyRequest = fc.oneof(
  { arbitrary: apiRequest, weight: 58 },
  { arbitrary: writeRequest, weight: 15 },
  { arbitrary: documentRequest, weight: 9 },
  { arbitrary: pageRequest, weight: 7 },
  { arbitrary: oddRequest, weight: 11 },
);

/** Every API route under both prefixes and every document, with each common method; then random requests. */
function plan(): Spec[] {
  const sweep: fc.Arbitrary<Spec>[] = [];
  for (const route of API_PATHS) for (const prefix of ['/api/v1', '/api']) for (const method of METHODS) sweep.push(requestTo(`${prefix}${route}`, route, method));
  for (const path of DOCUMENTS) for (const method of METHODS) sweep.push(requestTo(path, undefined, method));
  const first = sweep.map((arb, i) => fc.sample(arb, { seed: SEED + i, numRuns: 1 })[0] as Spec);
  return [...first, ...fc.sample(anyRequest, { seed: SEED, numRuns: Math.max(0, REQUESTS - first.length) })];
}

// --- sending ---

interface Sent {
  index: number;
  spec: Spec;
  method: string;
  target: string;
  headers: [string, string][];
  body: Buffer | undefined;
  requestId: string;
  /** The request sent before this one on the same connection, and its status. */
  before?: Sent | undefined;
  status?: number;
}

interface Outcome {
  /** First response's status, 0 when none came. */
  status: number;
  /** Every status line seen on the connection (pipelined answers to bad framing). */
  statuses: number[];
  headers: Record<string, string>;
  body: Buffer;
  error?: string;
}

let wordCounter = 0;
const lastOnSocket = new WeakMap<net.Socket, Sent>();

function resolve(text: string, rand: () => number): string {
  const pick = (items: string[], fallback: string) => (items.length === 0 ? fallback : (items[Math.floor(rand() * items.length)] as string));
  return text
    .replaceAll('⟦ORIGIN⟧', server.url)
    .replaceAll('⟦PORT⟧', String(port))
    .replaceAll('⟦ADMINVALUE⟧', adminCookie.slice('deals_session='.length))
    .replaceAll('⟦WORD⟧', () => `fz${(wordCounter++).toString(36)}${Math.floor(rand() * 1e6).toString(36)}`)
    .replaceAll('⟦SLUG⟧', () => pick(pool.slugs, 'no-such-deal'))
    .replaceAll('⟦CREATED⟧', () => pick(pool.created, 'no-such-created-deal'))
    .replaceAll('⟦ID⟧', () => pick(pool.ids, 'd-nope0000'))
    .replaceAll('⟦SUB⟧', () => pick(pool.submissions, 'sub-nonexistent'));
}

function bodyBytes(body: Body, target: string, method: string, rand: () => number): Buffer {
  if ('text' in body) return Buffer.from(resolve(body.text, rand), 'utf8');
  if ('bytes' in body) return Buffer.from(body.bytes);
  if ('huge' in body) {
    // Over the route's limit: 32 MiB for admin deal imports, 256 KiB elsewhere.
    const size = method === 'POST' && /\/deals\/?$/.test(target.split('?')[0] ?? '') ? 32 * 1024 * 1024 + 10 : 300 * 1024;
    return Buffer.concat([Buffer.from('{"title":"'), Buffer.alloc(size, 'a'), Buffer.from('"}')]);
  }
  const deep = body.wrap === 'array' ? `${'['.repeat(body.deep)}${']'.repeat(body.deep)}` : `${'{"a":'.repeat(body.deep)}1${'}'.repeat(body.deep)}`;
  const around: Record<typeof body.in, string> = {
    deal: `{"title":"Fuzz ⟦WORD⟧ deep","provider":"Deep","category":"cloud-credits","applicationUrl":"https://deep.example","eligibility":@}`,
    put: '{"slug":"⟦SLUG⟧","tags":@}',
    bare: '@',
    submission: `{"company_name":@,"website_url":"https://deep.example"}`,
    mcp: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_deals","arguments":{"query":@}}}',
    login: '{"email":@,"password":"x"}',
  };
  return Buffer.from(
    resolve(around[body.in], rand).replace('@', () => deep),
    'utf8',
  );
}

function prepare(index: number, spec: Spec): Sent {
  const rand = seededRandom(SEED ^ (index * 2654435761));
  const h = spec.headers as Record<string, string | undefined>;
  const requestId = `fz-${index}`;
  const list: [string, string][] = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) list.push([name, resolve(value, rand)]);
  };
  if (h.host !== undefined) add('Host', h.host);
  add('Accept', h.accept);
  add('Accept-Encoding', h.acceptEncoding);
  // Most requests with the admin session look like the admin pages' own (same Origin, JSON), so
  // the admin routes are exercised past authentication and the CSRF rule; the rest stay random.
  const likeAdminPage = spec.headers.cookie === 'admin' && rand() < 0.75;
  add('Origin', likeAdminPage ? '⟦ORIGIN⟧' : h.origin);
  add('Sec-Fetch-Site', h.secFetchSite);
  add('If-None-Match', h.ifNoneMatch);
  add('If-Match', h.ifMatch);
  add('X-Forwarded-For', h.forwardedFor);
  add('X-Forwarded-Proto', h.forwardedProto);
  add('Access-Control-Request-Method', h.acrm);
  add('Mcp-Protocol-Version', h.mcpVersion);
  add('Mcp-Session-Id', h.mcpSession);
  add('X-Hub-Signature-256', h.hubSignature);
  add('Expect', h.expect);
  add('Content-Encoding', h.contentEncoding);
  add('Range', h.range);
  add('Accept-Language', h.acceptLanguage);
  add('User-Agent', h.userAgent);
  // A request id of our own, so a logged error leads back to its request (unless fuzzed).
  add('X-Request-Id', h.requestId ?? requestId);
  const cookie = spec.headers.cookie as CookieChoice;
  // Sign-out revokes the session it is sent with (and may end every session of the account):
  // it gets a session of an admin of its own, so the shared admin session lives through the run.
  if (cookie === 'admin') add('Cookie', spec.route === '/auth/logout' ? leaverCookie : adminCookie);
  else if (cookie === 'member') add('Cookie', memberCookie);
  else if (cookie.startsWith('forged')) add('Cookie', `deals_session=${forgedCookies[Number(cookie.slice(6))] ?? ''}`);
  else if (cookie.startsWith('garbage:')) add('Cookie', cookie.slice('garbage:'.length));
  const body = spec.body === undefined ? undefined : bodyBytes(spec.body, spec.target, spec.method, rand);
  const form = body !== undefined && /^[\w%.-]+=/.test(body.toString('latin1'));
  if (body !== undefined) add('Content-Type', likeAdminPage ? (form ? 'application/x-www-form-urlencoded' : 'application/json') : h.contentType);
  return { index, spec, method: spec.method, target: resolve(spec.target, rand), headers: list, body, requestId: h.requestId === undefined ? requestId : '' };
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function sendHttp(sent: Sent): Promise<Outcome> {
  const { spec } = sent;
  const headers: [string, string][] = [...sent.headers];
  if (spec.transport === 'chunked') headers.push(['Transfer-Encoding', 'chunked']);
  else if (sent.body !== undefined) headers.push(['Content-Length', String(sent.body.byteLength)]);
  if (!headers.some(([n]) => n.toLowerCase() === 'host')) headers.push(['Host', `127.0.0.1:${port}`]);
  return new Promise((done) => {
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      done(outcome);
    };
    let req: http.ClientRequest;
    try {
      req = http.request({ host: '127.0.0.1', port, method: sent.method, path: sent.target, headers: headers.flat(), setHost: false, agent: spec.transport === 'fresh' ? false : keepAlive }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => finish({ status: res.statusCode ?? 0, statuses: [res.statusCode ?? 0], headers: flatHeaders(res.headers), body: Buffer.concat(chunks) }));
        res.on('error', (error) =>
          finish({ status: res.statusCode ?? 0, statuses: [res.statusCode ?? 0], headers: flatHeaders(res.headers), body: Buffer.concat(chunks), error: `response: ${errorText(error)}` }),
        );
      });
    } catch (error) {
      finish({ status: 0, statuses: [], headers: {}, body: Buffer.alloc(0), error: `the test could not send it: ${errorText(error)}` });
      return;
    }
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${ANSWER_TIMEOUT_MS} ms`)));
    // A request that hangs may be the victim of the one before it on the same kept-alive connection.
    req.on('socket', (socket: net.Socket) => {
      sent.before = lastOnSocket.get(socket);
      lastOnSocket.set(socket, sent);
    });
    req.on('error', (error) => finish({ status: 0, statuses: [], headers: {}, body: Buffer.alloc(0), error: errorText(error) }));
    if (sent.body !== undefined && spec.transport === 'chunked') {
      // Several chunks, so the server reads a stream of them.
      const step = Math.max(1, Math.ceil(sent.body.byteLength / 3));
      for (let at = 0; at < sent.body.byteLength; at += step) req.write(sent.body.subarray(at, at + step));
      req.end();
    } else req.end(sent.body);
  });
}

/** A request written byte by byte on a socket: what node:http will not send, and broken framing. */
function sendRaw(sent: Sent): Promise<Outcome> {
  const { spec } = sent;
  const body = sent.body ?? (spec.framing === 'ok' || spec.framing === 'no-host' || spec.framing === 'http10' ? undefined : Buffer.from('{"title":"raw framing"}'));
  const version = spec.framing === 'http10' ? 'HTTP/1.0' : 'HTTP/1.1';
  const lines = [`${sent.method} ${sent.target} ${version}`];
  if (spec.framing !== 'no-host' && spec.framing !== 'http10' && !sent.headers.some(([n]) => n.toLowerCase() === 'host')) lines.push(`Host: 127.0.0.1:${port}`);
  for (const [name, value] of sent.headers) lines.push(`${name}: ${value}`);
  const size = body?.byteLength ?? 0;
  let payload: Buffer = body ?? Buffer.alloc(0);
  let cut = false;
  switch (spec.framing) {
    case 'cl-short':
      // Declares more than it sends, then half-closes: an upload the client gave up on.
      lines.push(`Content-Length: ${size + 64}`);
      cut = true;
      break;
    case 'abort':
      lines.push(`Content-Length: ${size + 4096}`);
      break;
    case 'cl-long':
      lines.push(`Content-Length: ${Math.max(0, size - 5)}`);
      break;
    case 'bad-chunk':
      lines.push('Transfer-Encoding: chunked');
      payload = Buffer.concat([Buffer.from('zz\r\n'), payload, Buffer.from('\r\n0\r\n\r\n')]);
      break;
    case 'cl-and-te':
      lines.push(`Content-Length: ${size}`, 'Transfer-Encoding: chunked');
      payload = Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')]);
      break;
    case 'dup-cl':
      lines.push(`Content-Length: ${size}`, `Content-Length: ${size + 1}`);
      break;
    case 'garbage-line':
      lines.push('ThisIsNotAHeaderLine');
      if (body) lines.push(`Content-Length: ${size}`);
      break;
    case 'obs-fold':
      lines.push('X-Folded: first', '  continued');
      if (body) lines.push(`Content-Length: ${size}`);
      break;
    default:
      if (body) lines.push(`Content-Length: ${size}`);
  }
  lines.push('Connection: close');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  // The target and its raw UTF-8 go out as UTF-8; header values stay Latin-1 bytes.
  const requestLine = Buffer.from(`${sent.method} ${sent.target} ${version}\r\n`, 'utf8');
  const rest = head.subarray(Buffer.byteLength(`${sent.method} ${sent.target} ${version}\r\n`, 'latin1'));
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => socket.destroy(new Error('no answer in 10 s')), 10_000);
    let error: string | undefined;
    socket.on('error', (e) => {
      error = errorText(e);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      done(parseRaw(Buffer.concat(chunks), error));
    });
    socket.on('connect', () => {
      socket.write(Buffer.concat([requestLine, rest]));
      if (spec.framing === 'abort') {
        socket.write(payload.subarray(0, Math.ceil(payload.byteLength / 2)));
        setTimeout(() => socket.destroy(), 30);
        return;
      }
      socket.write(payload);
      if (cut) socket.end();
    });
  });
}

function parseRaw(received: Buffer, error: string | undefined): Outcome {
  let bytes = received;
  let text = bytes.toString('latin1');
  const statuses = [...text.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1])).filter((status) => status >= 200);
  // Interim answers (100 Continue) come first; the answer is the one after them.
  while (/^HTTP\/1\.[01] 1\d\d/.test(text) && text.includes('\r\n\r\n')) {
    const skip = text.indexOf('\r\n\r\n') + 4;
    text = text.slice(skip);
    bytes = bytes.subarray(skip);
  }
  const headEnd = text.indexOf('\r\n\r\n');
  if (statuses.length === 0 || headEnd < 0)
    return { status: 0, statuses, headers: {}, body: Buffer.alloc(0), error: error ?? (bytes.length ? 'unparseable answer' : 'connection closed without an answer') };
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, headEnd).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(headEnd + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status: statuses[0] ?? 0, statuses, headers, body, ...(error ? { error } : {}) };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

// --- checking ---

/** Stack frames, file paths and library names that must never reach a client. */
const LEAKS: { what: string; pattern: RegExp; inHtml: boolean }[] = [
  { what: 'a stack trace', pattern: /\n\s+at\s|\bat [\w$.<>[\] ]+ \([^()\s]*:\d+:\d+\)|\(node:[\w/]+:\d+:\d+\)/g, inHtml: true },
  { what: 'a file path', pattern: /\/work\/|\/tmp\/|node_modules|file:\/\/\/|\/home\/|\/usr\/lib|\.m?[jt]s:\d+/gi, inHtml: true },
  {
    what: 'a library name',
    pattern: /\b(?:lunr|zod|ajv|js-yaml|gray-matter|astro|ioredis|rate-limiter-flexible|modelcontextprotocol|openid-client|undici|llhttp|RangeError|TypeError|SyntaxError|ReferenceError)\b/gi,
    inHtml: false,
  },
];

function problemsOf(sent: Sent, out: Outcome): string[] {
  const problems: string[] = [];
  const { spec } = sent;
  const method = sent.method;
  // A connection the client itself cut, or a CONNECT node does not serve, may end without an answer.
  const mayGoUnanswered = spec.transport === 'raw' && (spec.framing === 'abort' || spec.framing === 'cl-short');
  // A server may refuse a body over its limit before reading it and close the connection; the
  // client, still writing, can then see the reset before the answer. Never a silence, though.
  // Node itself answers 431 to a request head over 16 KB and closes the connection the same way.
  const refusedEarly = (spec.body !== undefined && 'huge' in spec.body) || (sent.body !== undefined && headBytes(sent) > 16 * 1024);
  const resetWhileUploading = refusedEarly && /^(EPIPE|ECONNRESET)\b/.test(out.error ?? '');
  if (out.status === 0 && !mayGoUnanswered && !resetWhileUploading) {
    if (/HPE_HEADER_OVERFLOW/.test(out.error ?? '')) problems.push(`answer unreadable: its header section is over the 16 KB a default Node client (or proxy) accepts (${out.error})`);
    else problems.push(`no answer: ${out.error ?? 'none'}`);
  } else if (out.error && out.status !== 0 && spec.transport !== 'raw') problems.push(`answer broken off: ${out.error}`);
  for (const status of out.statuses) if (status >= 500) problems.push(`status ${status}`);
  if (out.status === 0) return problems;

  const fromApp = out.headers['x-request-id'] !== undefined;
  const pathname = sent.target.split('?')[0] ?? '';
  const underApi = pathname === '/api' || pathname.startsWith('/api/');
  const type = out.headers['content-type'] ?? '';
  const isJson = /^application\/(?:[\w.-]+\+)?json\b/i.test(type);
  let text = '';
  try {
    text = decode(out).toString('utf8');
  } catch (error) {
    problems.push(`body does not decode as ${out.headers['content-encoding']}: ${errorText(error)}`);
  }
  if (fromApp && out.headers['api-version'] !== 'v1') problems.push(`API-Version header is ${JSON.stringify(out.headers['api-version'])}, not v1`);
  if (out.status >= 400 && underApi && fromApp && !isJson) problems.push(`an /api error answered with Content-Type ${JSON.stringify(type)}`);

  if (isJson && text !== '' && method !== 'HEAD') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      problems.push('JSON content type, but the body is not JSON');
    }
    if (parsed !== undefined && out.status >= 400) {
      // MCP and A2A answer in JSON-RPC, whose protocol defines its own error object.
      const jsonRpc = /^\/api(?:\/v1)?\/(?:mcp|a2a)\/?$/.test(pathname) && typeof parsed === 'object' && parsed !== null && 'jsonrpc' in parsed;
      if (jsonRpc) problems.push(...jsonRpcErrorProblems(parsed));
      else {
        try {
          expectErrorBody(parsed);
        } catch (error) {
          problems.push(`not a SPEC error object: ${errorText(error).split('\n')[0]}`);
        }
      }
    }
  }
  if (out.status >= 400 && text !== '') {
    const asked = requestText(sent);
    const html = /html/i.test(type);
    for (const leak of LEAKS) {
      if (html && !leak.inHtml) continue;
      for (const match of text.matchAll(leak.pattern)) {
        // Text the request itself carried may come back (a path named in a 404, say).
        if (!asked.includes(match[0].toLowerCase())) problems.push(`error body shows ${leak.what}: ${JSON.stringify(match[0])}`);
      }
    }
  }
  return problems;
}

/** The MCP endpoint's protocol errors: JSON-RPC 2.0 error responses. */
function jsonRpcErrorProblems(body: unknown): string[] {
  const message = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown }; id?: unknown };
  const ok = message.jsonrpc === '2.0' && Number.isInteger(message.error?.code) && typeof message.error?.message === 'string' && 'id' in message;
  return ok ? [] : [`not a JSON-RPC error: ${JSON.stringify(body).slice(0, 200)}`];
}

/** Size of the request line and headers as sent. */
function headBytes(sent: Sent): number {
  return Buffer.byteLength(`${sent.method} ${sent.target} HTTP/1.1\r\n`) + sent.headers.reduce((sum, [n, v]) => sum + n.length + v.length + 4, 0);
}

function requestText(sent: Sent): string {
  let decoded = sent.target;
  try {
    decoded = decodeURIComponent(sent.target);
  } catch {
    // Keep the raw target.
  }
  return [sent.target, decoded, sent.body?.toString('utf8') ?? '', ...sent.headers.map(([, v]) => v)].join('\n').toLowerCase();
}

function decode(out: Outcome): Buffer {
  const coding = (out.headers['content-encoding'] ?? '').toLowerCase();
  if (out.body.byteLength === 0) return out.body;
  if (coding === 'br') return brotliDecompressSync(out.body);
  if (coding === 'gzip') return gunzipSync(out.body);
  return out.body;
}

/** Keep the pools of live slugs, ids and pending submissions current for later placeholders. */
function learn(sent: Sent, out: Outcome): void {
  if (out.status !== 200 && out.status !== 201) return;
  const pathname = sent.target.split('?')[0] ?? '';
  const route = /^\/api(?:\/v1)?(\/[^?]*?)\/?$/.exec(pathname)?.[1];
  let body: { deal?: { slug?: string; id?: string }; slugs?: string[]; ids?: string[]; id?: string; submission?: { id?: string } };
  try {
    body = JSON.parse(decode(out).toString('utf8')) as typeof body;
  } catch {
    return;
  }
  const add = (list: string[], value: unknown) => {
    if (typeof value === 'string' && value && !list.includes(value)) list.push(value);
  };
  const remove = (list: string[], value: unknown) => {
    const at = list.indexOf(value as string);
    if (at >= 0) list.splice(at, 1);
  };
  if (route === '/deals' && (sent.method === 'POST' || sent.method === 'PUT')) {
    add(pool.slugs, body.deal?.slug);
    add(pool.created, body.deal?.slug);
    add(pool.ids, body.deal?.id);
    for (const slug of body.slugs ?? []) {
      add(pool.slugs, slug);
      add(pool.created, slug);
    }
  } else if (route === '/deals' && sent.method === 'DELETE') {
    for (const slug of body.slugs ?? []) {
      remove(pool.slugs, slug);
      remove(pool.created, slug);
    }
    for (const id of body.ids ?? []) remove(pool.ids, id);
  } else if (route === '/submit-deal' && out.status === 201) add(pool.submissions, body.id);
  else if (route === '/admin/submissions/approve' || route === '/admin/submissions/reject') {
    remove(pool.submissions, body.submission?.id);
    add(pool.slugs, body.deal?.slug);
    add(pool.ids, body.deal?.id);
  }
}

function describeRequest(sent: Sent): string {
  const { spec } = sent;
  const body =
    spec.body === undefined
      ? 'none'
      : 'deep' in spec.body
        ? `${spec.body.wrap}s nested ${spec.body.deep} deep (in a ${spec.body.in} body), ${sent.body?.byteLength} bytes`
        : 'huge' in spec.body
          ? `${sent.body?.byteLength} bytes of JSON`
          : JSON.stringify(sent.body?.toString('latin1').slice(0, 300));
  const headers = sent.headers.map(([n, v]) => `${n}: ${v.length > 120 ? `${v.slice(0, 120)}…(${v.length})` : v}`).join(' | ');
  const how = spec.transport === 'raw' ? `raw socket, framing ${spec.framing}` : spec.transport;
  return `#${sent.index} ${sent.method} ${sent.target.length > 300 ? `${sent.target.slice(0, 300)}…(${sent.target.length})` : sent.target} [${how}] headers: ${headers} body: ${body}`;
}

// --- the test ---

test(`${REQUESTS} random requests over every route and method: no 5xx, SPEC errors, no leaks, no logged error`, async () => {
  for (const path of DOCUMENTS) expect(documentRoute(path), path).toBeDefined();
  const specs = plan();
  const statuses = new Map<string, number>();
  const problems: string[] = [];
  const byRequestId = new Map<string, Sent>();
  let next = 0;
  let sentCount = 0;
  /** Site pages answered 200 as HTML: proof that the built site was fuzzed, not skipped. */
  let pagesServed = 0;
  const started = performance.now();

  async function worker(): Promise<void> {
    while (next < specs.length && problems.length < STOP_AFTER_PROBLEMS) {
      const index = next++;
      const sent = prepare(index, specs[index] as Spec);
      const out = sent.spec.transport === 'raw' ? await sendRaw(sent) : await sendHttp(sent);
      sentCount++;
      const key = out.status === 0 ? `none (${sent.spec.transport === 'raw' ? sent.spec.framing : 'error'})` : String(out.status);
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (out.status === 200 && String(out.headers['content-type'] ?? '').startsWith('text/html')) pagesServed++;
      byRequestId.set(out.headers['x-request-id'] ?? sent.requestId, sent);
      if (sent.requestId) byRequestId.set(sent.requestId, sent);
      sent.status = out.status;
      const before = out.status === 0 && sent.before ? `\n    earlier on the same connection: ${describeRequest(sent.before)} → ${sent.before.status}` : '';
      for (const problem of problemsOf(sent, out)) problems.push(`${problem}\n    ${describeRequest(sent)}\n    → ${out.status} ${decodeSafe(out).slice(0, 300)}${before}`);
      learn(sent, out);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  keepAlive.destroy();
  // Let the server finish logging requests whose clients went away.
  await new Promise((r) => setTimeout(r, 500));

  const logged = server.errors().map((line) => {
    const id = /"requestId":"([^"]*)"/.exec(line)?.[1];
    const sent = id ? byRequestId.get(id) : undefined;
    const kind = /"event":"([^"]*)".*?"error":"([^"\\]{0,45})/.exec(line)?.slice(1).join(': ') ?? line.slice(0, 80);
    return { kind: `logged error ${kind}`, text: `logged: ${line.slice(0, 500)}\n    ${sent ? describeRequest(sent) : '(request not identified)'}` };
  });
  const seconds = (performance.now() - started) / 1000;
  const distribution = [...statuses]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  console.log(
    `fuzz (seed ${SEED}): ${sentCount} of ${specs.length} requests sent in ${seconds.toFixed(1)} s; statuses ${distribution}; ` +
      `${pool.created.length} deals created, ${pool.submissions.length} submissions pending; ${pagesServed} HTML pages served; ${problems.length} problems, ${logged.length} logged errors`,
  );
  expect(pagesServed, 'the built site answered no page: pages were not fuzzed').toBeGreaterThan(0);

  // Grouped by kind, a few examples each, so one frequent failure does not hide the others.
  const report = [...groupExamples(problems.map((text) => ({ kind: text.split(/[:(\n]/)[0]?.trim() ?? '', text }))), ...groupExamples(logged)];
  if (sentCount < specs.length) report.push(`stopped after ${sentCount} of ${specs.length} requests (over ${STOP_AFTER_PROBLEMS} problems)`);
  expect(report, `${problems.length} answers broke the rules and the server logged ${logged.length} errors (seed ${SEED}; reproduce with FUZZ_SEED=${SEED})`).toEqual([]);
}, 240_000);

// --- internal ---

function groupExamples(items: { kind: string; text: string }[], perKind = 3): string[] {
  const kinds = new Map<string, string[]>();
  for (const { kind, text } of items) kinds.set(kind, [...(kinds.get(kind) ?? []), text]);
  return [...kinds].flatMap(([kind, texts]) => [`${texts.length} × ${kind}`, ...texts.slice(0, perKind)]);
}

/** Session cookies signed with the server's real secret (or not) that must not grant anything, and one that does. */
function forgeCookies(): string[] {
  const now = Math.floor(Date.now() / 1000);
  const sign = (payload: string, secret = SESSION_SECRET) => `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const adminValue = adminCookie.slice('deals_session='.length);
  return [
    seal({ email: ADMIN.email, role: 'admin', exp: now - 10 } as { exp: number }, SESSION_SECRET), // expired
    seal({ email: 'ghost@example.com', role: 'admin', exp: now + 3600 } as { exp: number }, SESSION_SECRET), // no such account
    seal({ email: MEMBER.email, role: 'admin', exp: now + 3600 } as { exp: number }, SESSION_SECRET), // a member claiming admin
    sign(b64({ email: ADMIN.email, exp: 'never' })), // exp not a number
    sign(b64({ email: 5, exp: now + 3600 })), // email not a string
    seal({ email: ADMIN.email, role: 'admin', exp: now + 3600 } as { exp: number }, 'not-the-secret-but-just-as-long-32b'), // wrong key
    `${b64({ email: ADMIN.email, role: 'admin', exp: now + 3600 })}.`, // unsigned
    `${adminValue.slice(0, 5)}${adminValue[5] === 'A' ? 'B' : 'A'}${adminValue.slice(6)}`, // tampered
    sign(Buffer.from('null').toString('base64url')), // signed null
    seal({ email: ADMIN.email, role: 'admin', exp: now + 3600, gen: 'not-the-generation', sid: 'x' } as { exp: number }, SESSION_SECRET), // an old generation
    adminValue, // valid: the admin's own session
  ];
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function decodeSafe(out: Outcome): string {
  try {
    return decode(out).toString('utf8');
  } catch {
    return out.body.toString('latin1');
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}`;
  return String(error);
}
