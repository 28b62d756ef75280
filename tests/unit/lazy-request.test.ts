import { describe, expect, it } from 'vitest';
import { headerOf, LazyRequest, webRequest } from '../../functions/http/lazy-request.ts';

const raw = ['Host', 'deals.example', 'Accept', 'application/json', 'X-Trace', 'a', 'x-trace', 'b'];
const make = (method = 'GET') => new LazyRequest(method, 'http://deals.example/api/v1/deals?search=aws', raw) as unknown as Request;

// The Node adapter hands these to the app for GET, HEAD and OPTIONS; they must read as a Request does.
describe('LazyRequest reads as the Request it stands for', () => {
  it('has the method, URL and headers (repeated names joined) of the Node request', () => {
    const request = make('HEAD');
    expect(request).toBeInstanceOf(Request);
    expect(request.method).toBe('HEAD');
    expect(request.url).toBe('http://deals.example/api/v1/deals?search=aws');
    expect(request.headers.get('accept')).toBe('application/json');
    expect(request.headers.get('x-trace')).toBe('a, b');
    expect(request.headers).toBe(request.headers);
  });

  it('headerOf reads a header as headers.get does, before and after the Headers is made, and from any Request', () => {
    const names = ['host', 'accept', 'x-trace', 'if-none-match', 'x'];
    const real = new Request('http://deals.example/', {
      headers: [
        ['Host', 'deals.example'],
        ['Accept', 'application/json'],
        ['X-Trace', 'a'],
        ['x-trace', 'b'],
      ],
    });
    const lazy = make();
    const expected = names.map((name) => real.headers.get(name));
    expect(expected).toEqual(['deals.example', 'application/json', 'a, b', null, null]);
    expect(names.map((name) => headerOf(lazy, name))).toEqual(expected);
    expect(names.map((name) => headerOf(real, name))).toEqual(expected);
    void lazy.headers;
    expect(names.map((name) => headerOf(lazy, name))).toEqual(expected);
  });

  it('answers every other member of Request through a real one', async () => {
    const request = make();
    expect(request.signal).toBeInstanceOf(AbortSignal);
    expect(request.signal.aborted).toBe(false);
    expect(request.bodyUsed).toBe(false);
    expect(request.body).toBeNull();
    expect(request.redirect).toBe('follow');
    expect(await request.text()).toBe('');
    const copy = request.clone();
    expect([copy.method, copy.url, copy.headers.get('x-trace')]).toEqual(['GET', request.url, 'a, b']);
  });

  it('gives libraries a real Request, which new Request() and fetch accept', () => {
    const real = webRequest(make());
    expect(Object.getPrototypeOf(real)).toBe(Request.prototype);
    const rebuilt = new Request(real);
    expect([rebuilt.method, rebuilt.url, rebuilt.headers.get('accept')]).toEqual(['GET', real.url, 'application/json']);
    const plain = new Request('http://x/');
    expect(webRequest(plain)).toBe(plain);
  });
});
