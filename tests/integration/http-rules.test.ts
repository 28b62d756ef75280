/**
 * Rules every /api response follows (SPEC "Versioning", "Errors"; DESIGN "API decisions"):
 * version headers and aliases, caching and conditional GET, HEAD, OPTIONS and CORS, methods,
 * compression, unknown paths and the error object. Raw headers and bytes come from
 * `node:http`, because `fetch` decompresses on its own.
 */
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { expectErrorBody } from '../helpers/api-schemas.ts';
import { getJson, rawRequest, type RawResponse } from '../helpers/http.ts';
import { FIXTURES, useTestServer } from '../helpers/server.ts';

const server = useTestServer(join(FIXTURES, 'valid'));

const raw = (method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> => rawRequest(server.url, method, path, headers);

/** A JSON error response: validated against the SPEC error object. */
function errorOf(response: RawResponse) {
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return expectErrorBody(JSON.parse(response.body.toString('utf8')));
}

/** Headers that legitimately differ between two answers to the same request. */
// Headers that differ per request by design: the request id and the remaining rate-limit budget.
const VOLATILE_HEADERS = new Set(['date', 'server-timing', 'connection', 'keep-alive', 'x-request-id', 'ratelimit']);
function stableHeaders(response: RawResponse): Record<string, unknown> {
  return Object.fromEntries(Object.entries(response.headers).filter(([name]) => !VOLATILE_HEADERS.has(name)));
}

describe('API-Version on every /api response', () => {
  test.each([
    ['GET', '/api/v1/deals', 200],
    ['GET', '/api/v1/startups', 200],
    ['GET', '/api/v1/deals?slug=aws-activate', 200],
    ['GET', '/api/deals', 200],
    ['HEAD', '/api/v1/deals', 200],
    ['OPTIONS', '/api/v1/deals', 204],
    ['GET', '/api/v1/deals?limit=0', 400],
    ['POST', '/api/v1/deals', 401],
    ['GET', '/api/v1/deals?slug=nope', 404],
    ['GET', '/api/v1/nope', 404],
    ['GET', '/api/v2/deals', 404],
    ['GET', '/api', 404],
    ['PATCH', '/api/v1/deals', 405],
  ])('%s %s → %i', async (method, path, status) => {
    const response = await raw(method, path);
    expect(response.status).toBe(status);
    expect(response.headers['api-version']).toBe('v1');
  });

  test('a 304 carries it too', async () => {
    const first = await raw('GET', '/api/v1/deals');
    const again = await raw('GET', '/api/v1/deals', { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers['api-version']).toBe('v1');
  });
});

describe('unversioned aliases', () => {
  test('/api/deals answers like /api/v1/deals and links to its successor, query included', async () => {
    const alias = await raw('GET', '/api/deals?limit=1&status=all');
    const versioned = await raw('GET', '/api/v1/deals?limit=1&status=all');
    expect(alias.status).toBe(200);
    expect(alias.body.equals(versioned.body)).toBe(true);
    expect(alias.headers.etag).toBe(versioned.headers.etag);
    expect(alias.headers.link).toBe('</api/v1/deals?limit=1&status=all>; rel="successor-version"');
    expect(versioned.headers.link).toBeUndefined();
  });

  test('/api/startups links to /api/v1/startups', async () => {
    const alias = await raw('GET', '/api/startups?country=US');
    expect(alias.status).toBe(200);
    expect(alias.headers.link).toBe('</api/v1/startups?country=US>; rel="successor-version"');
    expect(alias.headers['api-version']).toBe('v1');
  });

  test('the successor link keeps the query percent-encoded, so it cannot break out of <…>', async () => {
    const alias = await raw('GET', '/api/deals?search=a>b"c<d&limit=1');
    expect(alias.status).toBe(200);
    expect(alias.headers.link).toBe('</api/v1/deals?search=a%3Eb%22c%3Cd&limit=1>; rel="successor-version"');
  });

  test('alias without a query string, and alias error answers, carry the link as well', async () => {
    expect((await raw('GET', '/api/deals')).headers.link).toBe('</api/v1/deals>; rel="successor-version"');
    const missing = await raw('GET', '/api/deals?slug=nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.link).toBe('</api/v1/deals?slug=nope>; rel="successor-version"');
    expect(errorOf(missing).code).toBe('not_found');
  });
});

describe('unknown paths', () => {
  test.each(['/api/v1/nope', '/api/nope', '/api/v2/deals', '/api/v2/startups', '/api/v1', '/api', '/api/v1/deals/extra'])('GET %s is a 404 JSON error object', async (path) => {
    const response = await raw('GET', path);
    expect(response.status).toBe(404);
    expect(response.headers['cache-control']).toBe('no-store');
    const error = errorOf(response);
    expect(error.code).toBe('not_found');
    expect(error.error).toBe(`There is no API endpoint at ${path}.`);
  });

  test('the 404 body for an unknown path', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/nope');
    expect(status).toBe(404);
    expect(expectErrorBody(body)).toMatchInlineSnapshot(
      { timestamp: expect.any(String) },
      `
      {
        "code": "not_found",
        "error": "There is no API endpoint at /api/v1/nope.",
        "hint": "See /openapi.json for the endpoints; deals are at /api/v1/deals, startups at /api/v1/startups.",
        "success": false,
        "timestamp": Any<String>,
      }
    `,
    );
  });

  test('any method on an unknown path is 404, not 405', async () => {
    for (const method of ['POST', 'DELETE', 'OPTIONS']) {
      const response = await raw(method, '/api/v1/nope');
      expect(response.status, method).toBe(404);
    }
  });
});

describe('caching and conditional GET', () => {
  test.each(['/api/v1/deals', '/api/v1/deals?slug=aws-activate', '/api/v1/startups', '/api/v1/deals?search=cloud'])('GET %s: strong ETag, public max-age=60, any origin', async (path) => {
    const response = await raw('GET', path);
    expect(response.status).toBe(200);
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test('the same answer keeps its ETag; a different answer has another', async () => {
    const a = await raw('GET', '/api/v1/deals?limit=1');
    const b = await raw('GET', '/api/v1/deals?limit=1');
    const c = await raw('GET', '/api/v1/deals?limit=2');
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(c.headers.etag).not.toBe(a.headers.etag);
  });

  test('If-None-Match with the ETag is 304 with an empty body and the validators', async () => {
    const first = await raw('GET', '/api/v1/deals?slug=aws-activate');
    const etag = String(first.headers.etag);
    const again = await raw('GET', '/api/v1/deals?slug=aws-activate', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=60');
  });

  test('If-None-Match also matches inside a list, weakly, or as *', async () => {
    const etag = String((await raw('GET', '/api/v1/startups')).headers.etag);
    for (const header of [`"other", ${etag}`, `W/${etag}`, '*']) {
      const response = await raw('GET', '/api/v1/startups', { 'if-none-match': header });
      expect(response.status, header).toBe(304);
    }
  });

  test('a non-matching If-None-Match gets the full 200 answer', async () => {
    const response = await raw('GET', '/api/v1/startups', { 'if-none-match': '"not-the-tag"' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({ success: true, total: 6 });
  });

  test('errors are not cacheable and have no ETag', async () => {
    for (const path of ['/api/v1/deals?slug=nope', '/api/v1/deals?limit=abc', '/api/v1/nope']) {
      const response = await raw('GET', path);
      expect(response.headers['cache-control'], path).toBe('no-store');
      expect(response.headers.etag, path).toBeUndefined();
      expect(response.headers['access-control-allow-origin'], path).toBe('*');
      errorOf(response);
    }
  });
});

describe('HEAD', () => {
  test.each(['/api/v1/deals', '/api/v1/deals?slug=aws-activate', '/api/v1/startups?country=US', '/api/startups'])('HEAD %s has the GET headers and no body', async (path) => {
    const get = await raw('GET', path);
    const head = await raw('HEAD', path);
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(stableHeaders(head)).toEqual(stableHeaders(get));
    expect(head.headers['content-length']).toBe(String(get.body.byteLength));
  });

  test("HEAD with Accept-Encoding has the compressed variant's headers", async () => {
    const get = await raw('GET', '/api/v1/deals', { 'accept-encoding': 'gzip' });
    const head = await raw('HEAD', '/api/v1/deals', { 'accept-encoding': 'gzip' });
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(stableHeaders(head)).toEqual(stableHeaders(get));
  });

  test('HEAD of a missing deal is 404 with no body', async () => {
    const head = await raw('HEAD', '/api/v1/deals?slug=nope');
    expect(head.status).toBe(404);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('OPTIONS and CORS', () => {
  test('OPTIONS /api/v1/deals is 204 with Allow and the preflight headers', async () => {
    const response = await raw('OPTIONS', '/api/v1/deals', {
      origin: 'https://elsewhere.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'if-none-match',
    });
    expect(response.status).toBe(204);
    expect(response.body.byteLength).toBe(0);
    expect(response.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    // DESIGN: admin endpoints are same-origin only: a cross-site preflight is granted the reads alone.
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('if-none-match');
    expect(response.headers['access-control-max-age']).toBe('86400');
  });

  test('OPTIONS /api/v1/startups allows only reads', async () => {
    const response = await raw('OPTIONS', '/api/v1/startups');
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  test('OPTIONS on an alias works the same', async () => {
    const response = await raw('OPTIONS', '/api/startups');
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.link).toBe('</api/v1/startups>; rel="successor-version"');
  });

  test('public answers expose the headers a script needs', async () => {
    const response = await raw('GET', '/api/v1/deals?limit=1', { origin: 'https://elsewhere.example' });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(response.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['API-Version', 'ETag', 'Link']));
  });

  test('admin endpoints are same-origin only: no CORS grant', async () => {
    const response = await raw('OPTIONS', '/api/v1/auth/login', { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('/api/mcp: POST only, and every answer says so (issue 14, item 9)', () => {
  // A stateless MCP server has no SSE stream for GET and no session for DELETE (STANDARDS 1),
  // so OPTIONS, every 405 and the preflight name POST alone: no method they list answers 405.
  const MCP_PATHS = ['/api/mcp', '/api/mcp/', '/api/v1/mcp'];

  test.each(MCP_PATHS)('OPTIONS %s is 204 with Allow and Access-Control-Allow-Methods: POST, OPTIONS', async (path) => {
    const response = await raw('OPTIONS', path);
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe('POST, OPTIONS');
    expect(response.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
  });

  test('a cross-origin preflight for POST is granted POST, OPTIONS and the MCP headers', async () => {
    const response = await raw('OPTIONS', '/api/mcp', {
      origin: 'https://agent.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-protocol-version',
    });
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe('POST, OPTIONS');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('mcp-protocol-version');
  });

  test.each(['GET', 'DELETE', 'HEAD'])('a cross-origin preflight for %s gets no CORS grant (the method answers 405)', async (method) => {
    const response = await raw('OPTIONS', '/api/mcp', { origin: 'https://agent.example', 'access-control-request-method': method });
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe('POST, OPTIONS');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  test.each(['GET', 'DELETE', 'PUT', 'PATCH'])('%s /api/mcp is 405 method_not_allowed with Allow: POST, OPTIONS', async (method) => {
    const response = await raw(method, '/api/mcp', method === 'GET' ? { accept: 'text/event-stream' } : {});
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST, OPTIONS');
    expect(errorOf(response)).toMatchObject({ success: false, code: 'method_not_allowed', error: `Method ${method} is not supported here.`, hint: 'Use POST, OPTIONS.' });
  });

  test('HEAD /api/mcp is 405 with Allow: POST, OPTIONS and no body (there is no GET to mirror)', async () => {
    const response = await raw('HEAD', '/api/mcp');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST, OPTIONS');
    expect(response.body.byteLength).toBe(0);
  });

  test('TRACE /api/mcp (refused before routing) names the same methods', async () => {
    const response = await raw('TRACE', '/api/mcp');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST, OPTIONS');
    expect(errorOf(response).code).toBe('method_not_allowed');
  });
});

describe('methods', () => {
  test('PATCH /api/v1/deals is 405 with Allow', async () => {
    const response = await raw('PATCH', '/api/v1/deals');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(errorOf(response)).toMatchObject({ code: 'method_not_allowed', error: 'Method PATCH is not supported here.' });
  });

  test.each(['POST', 'PUT', 'DELETE'])('%s /api/v1/deals without a session is 401 unauthorized', async (method) => {
    const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
    if (method !== 'DELETE') init.body = JSON.stringify({ slug: 'new-deal', title: 'New' });
    const { status, headers, body } = await getJson(server.url, method === 'DELETE' ? '/api/v1/deals?slug=aws-activate' : '/api/v1/deals', init);
    expect(status).toBe(401);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(expectErrorBody(body).code).toBe('unauthorized');
    // Nothing changed.
    expect((await getJson(server.url, '/api/v1/deals?slug=aws-activate')).status).toBe(200);
  });

  test('a forged session cookie is still 401', async () => {
    const { status, body } = await getJson(server.url, '/api/v1/deals', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'session=forged.value; sid=x' },
      body: '{}',
    });
    expect(status).toBe(401);
    expect(expectErrorBody(body).code).toBe('unauthorized');
  });
});

describe('compression', () => {
  const LIST = '/api/v1/deals?status=all';

  async function identity(path: string): Promise<RawResponse> {
    const response = await raw('GET', path);
    expect(response.headers['content-encoding']).toBeUndefined();
    return response;
  }

  test('the list answer is over 1 KB, so compression applies to it', async () => {
    expect((await identity(LIST)).body.byteLength).toBeGreaterThanOrEqual(1024);
  });

  test.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br, gzip;q=0', 'br'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['BR', 'br'],
  ])('Accept-Encoding %j → %s, same bytes once decoded', async (accept, coding) => {
    const plain = await identity(LIST);
    const response = await raw('GET', LIST, { 'accept-encoding': accept });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe(coding);
    expect(response.headers.vary).toContain('Accept-Encoding');
    expect(response.headers['content-length']).toBe(String(response.body.byteLength));
    expect(response.body.byteLength).toBeLessThan(plain.body.byteLength);
    const decoded = coding === 'br' ? brotliDecompressSync(response.body) : gunzipSync(response.body);
    expect(decoded.equals(plain.body)).toBe(true);
    // The variant's tag is the identity tag with the coding inside the quotes.
    expect(response.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-${coding}"`);
  });

  test.each(['identity', 'deflate', 'br;q=0, gzip;q=0', 'gzip;q=0, *;q=0'])('Accept-Encoding %j → no coding', async (accept) => {
    const plain = await identity(LIST);
    const response = await raw('GET', LIST, { 'accept-encoding': accept });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toContain('Accept-Encoding');
    expect(response.body.equals(plain.body)).toBe(true);
    expect(response.headers.etag).toBe(plain.headers.etag);
  });

  test('an answer under 1 KB is sent as is, without Vary', async () => {
    const response = await raw('GET', '/api/v1/deals?slug=aws-activate', { 'accept-encoding': 'br, gzip' });
    expect(response.body.byteLength).toBeLessThan(1024);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({ success: true, deal: { slug: 'aws-activate' } });
  });

  test('a compressed answer is never served to a client that did not ask for it', async () => {
    const path = '/api/v1/deals?scope=all';
    await raw('GET', path, { 'accept-encoding': 'br' });
    await raw('GET', path, { 'accept-encoding': 'br' });
    const gzip = await raw('GET', path, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await raw('GET', path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString('utf8'))).toMatchObject({ success: true, count: 8 });
  });

  test('If-None-Match with either the identity or a coding tag is 304, for any coding', async () => {
    const plain = await identity(LIST);
    const br = await raw('GET', LIST, { 'accept-encoding': 'br' });
    const tags = [String(plain.headers.etag), String(br.headers.etag), `${String(plain.headers.etag).slice(0, -1)}-gzip"`];
    for (const tag of tags) {
      for (const accept of ['br', 'gzip', 'identity']) {
        const response = await raw('GET', LIST, { 'accept-encoding': accept, 'if-none-match': tag });
        expect(response.status, `${tag} ${accept}`).toBe(304);
        expect(response.body.byteLength).toBe(0);
      }
    }
  });
});

describe('error object', () => {
  test('every kind of error answer is exactly the SPEC error object', async () => {
    const cases: [string, string, number, string][] = [
      ['GET', '/api/v1/deals?limit=abc', 400, 'validation_error'],
      ['GET', '/api/v1/startups?forSale=maybe', 400, 'validation_error'],
      ['POST', '/api/v1/deals', 401, 'unauthorized'],
      ['GET', '/api/v1/deals?id=nope', 404, 'not_found'],
      ['GET', '/api/v1/unknown', 404, 'not_found'],
      ['DELETE', '/api/v1/startups', 405, 'method_not_allowed'],
    ];
    for (const [method, path, status, code] of cases) {
      const response = await raw(method, path);
      expect(response.status, `${method} ${path}`).toBe(status);
      const error = errorOf(response);
      expect(error.code).toBe(code);
      expect(error.hint, `${method} ${path} has a hint`).toEqual(expect.any(String));
      expect(Math.abs(Date.parse(error.timestamp) - Date.now())).toBeLessThan(60_000);
    }
  });
});
