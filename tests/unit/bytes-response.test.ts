import { describe, expect, it } from 'vitest';
import { appendHeader, ByteRuns, BytesResponse, checkedFields, givePieceBack, takePiece, hasHeader, headerFields, setCheckedFields, setHeader } from '../../functions/http/bytes-response.ts';

const json = '{"deal":"Café ✓"}';
const make = () => new BytesResponse(new TextEncoder().encode(json), { status: 201, headers: { 'Content-Type': 'application/json' } });

// The adapter writes `payload`; everything else reads the Response as the Fetch standard says.
describe('BytesResponse reads as a Response given the same bytes', () => {
  it('keeps status and headers and gives the body to every Body method', async () => {
    const response = make();
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response).toBeInstanceOf(Response);
    expect(await make().text()).toBe(json);
    expect(await make().json()).toEqual({ deal: 'Café ✓' });
    expect(new TextDecoder().decode(await make().arrayBuffer())).toBe(json);
    expect(new TextDecoder().decode(await make().bytes())).toBe(json);
    const blob = await make().blob();
    expect([blob.type, await blob.text()]).toEqual(['application/json', json]);
  });

  it('streams the same bytes through body, and a read body cannot be read again', async () => {
    const response = make();
    expect(response.bodyUsed).toBe(false);
    expect(await new Response(response.body).text()).toBe(json);
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    const once = make();
    await once.text();
    expect(once.bodyUsed).toBe(true);
    await expect(once.json()).rejects.toThrow(TypeError);
    expect(() => once.clone()).toThrow(TypeError);
  });

  it('clones into an independent response, and a copy made by the Response constructor keeps the body', async () => {
    const original = make();
    const copy = original.clone();
    copy.headers.set('X-Copy', '1');
    expect(original.headers.has('x-copy')).toBe(false);
    expect([await copy.text(), await original.text()]).toEqual([json, json]);
    const rewrapped = new Response(make().body, make());
    expect([rewrapped.status, await rewrapped.text()]).toEqual([201, json]);
  });

  it('never shares its bytes with a reader', async () => {
    const response = make();
    const bytes = await response.bytes();
    bytes[0] = 0;
    expect((response.payload as Uint8Array)[0]).toBe('{'.charCodeAt(0));
  });
});

// The steps and the Node adapter write and read fields through these helpers, without undici's Headers.
describe('a body copied in pieces as it is read (a huge filtered list)', () => {
  const numbers = Array.from({ length: 40_000 }, (_, i) => i);
  const json = Buffer.from(JSON.stringify(numbers));
  const copied = (made: { count: number }) =>
    new ByteRuns(json.byteLength, function* (pieceBytes) {
      for (let at = 0; at < json.byteLength; at += pieceBytes) {
        made.count++;
        yield Buffer.from(json.subarray(at, at + pieceBytes));
      }
    });

  it('gives every Body method the whole, made in one piece', async () => {
    const made = { count: 0 };
    expect(await new BytesResponse(copied(made), { status: 200 }).json()).toEqual(numbers);
    expect(made.count).toBe(1);
  });

  it('its stream makes a piece of 64 KiB per read', async () => {
    const made = { count: 0 };
    const reader = new BytesResponse(copied(made), { status: 200 }).body.getReader();
    expect(made.count).toBe(0);
    const read: Buffer[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      read.push(Buffer.from(next.value));
      expect(made.count).toBe(read.length);
    }
    expect(read.length).toBe(Math.ceil(json.byteLength / (64 * 1024)));
    expect(Buffer.concat(read).equals(json)).toBe(true);
  });
});

describe('pieces given back once written', () => {
  const PIECE = 64 * 1024;

  it('are handed out again; other lengths are buffers of their own', () => {
    const first = takePiece(PIECE);
    const second = takePiece(PIECE);
    expect(first.buffer).not.toBe(second.buffer);
    givePieceBack(first);
    expect(takePiece(PIECE).buffer).toBe(first.buffer);
    expect(takePiece(10).byteLength).toBe(10);
    expect(takePiece(PIECE + 1).byteLength).toBe(PIECE + 1);
  });

  it('never takes memory it did not hand out, nor one piece twice', () => {
    const foreign = Buffer.allocUnsafeSlow(PIECE);
    givePieceBack(foreign);
    expect(takePiece(PIECE).buffer).not.toBe(foreign.buffer);
    const piece = takePiece(PIECE);
    givePieceBack(piece);
    givePieceBack(piece);
    const again = takePiece(PIECE);
    expect(again.buffer).toBe(piece.buffer);
    expect(takePiece(PIECE).buffer).not.toBe(piece.buffer);
  });
});

describe('header fields set through the helpers', () => {
  const steps = (response: Response) => {
    setHeader(response, 'X-Request-Id', 'r-1');
    setHeader(response, 'API-Version', ' v1 ');
    appendHeader(response, 'Link', '</api/v1/deals>; rel="successor-version"');
    appendHeader(response, 'Link', '</docs>; rel="deprecation"');
    setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
    return response;
  };

  it('end with the same fields as Headers would hold, on a BytesResponse and on any Response', () => {
    const bytes = steps(make());
    const plain = steps(new Response('x', { headers: { 'Content-Type': 'text/plain', 'Set-Cookie': 'a=1' } }));
    const expected = { 'x-request-id': 'r-1', 'api-version': 'v1', link: '</api/v1/deals>; rel="successor-version", </docs>; rel="deprecation"', 'content-type': 'application/json; charset=utf-8' };
    expect(headerFields(bytes)).toEqual({ fields: expected, cookies: [] });
    expect(headerFields(plain)).toEqual({ fields: expected, cookies: ['a=1'] });
    expect([hasHeader(bytes, 'LINK'), hasHeader(bytes, 'RateLimit-Policy'), hasHeader(plain, 'link')]).toEqual([true, false, true]);
    // Read as a Response: a real Headers with the same fields, and later sets land there.
    expect(Object.fromEntries(bytes.headers)).toEqual(expected);
    setHeader(bytes, 'Vary', 'Accept');
    expect(bytes.headers.get('vary')).toBe('Accept');
    expect(headerFields(bytes).fields.vary).toBe('Accept');
  });

  it('refuse what Headers refuses: a value with CR, LF or NUL, a name that is no token', () => {
    for (const response of [make(), new Response('x')]) {
      expect(() => setHeader(response, 'Link', 'a\r\nSet-Cookie: x=1')).toThrow(TypeError);
      expect(() => appendHeader(response, 'Link', 'a\0b')).toThrow(TypeError);
      expect(() => setHeader(response, 'Bad Name', 'x')).toThrow(TypeError);
    }
    expect(() => setHeader(make(), 'X-Name', 'Café ✓')).toThrow(TypeError);
    expect(() => new BytesResponse(new Uint8Array(1), { status: 200, headers: { 'X-Bad': 'a\nb' } })).toThrow(TypeError);
  });

  it('names remembered as checked stay lower-cased and bounded: past 256 others, a new name is still checked', () => {
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`X-Name-${i}`, `v${i}`]));
    for (let round = 0; round < 2; round++) {
      const response = new BytesResponse(new Uint8Array(1), { status: 200, headers: many });
      expect(headerFields(response).fields['x-name-299']).toBe('v299');
      expect(Object.keys(headerFields(response).fields)).toHaveLength(300);
    }
    expect(() => new BytesResponse(new Uint8Array(1), { status: 200, headers: { 'Bad Name': 'x' } })).toThrow(TypeError);
    expect(() => new BytesResponse(new Uint8Array(1), { status: 200, headers: { 'X-Name-299 ': 'x' } })).toThrow(TypeError);
  });

  it('checked once: checkedFields refuses what Headers refuses, and fields it made land as set', () => {
    expect(() => checkedFields({ 'X-Bad': 'a\r\nb' })).toThrow(TypeError);
    expect(() => checkedFields({ 'Bad Name': 'x' })).toThrow(TypeError);
    const fields = checkedFields({ 'X-Frame-Options': ' DENY ', 'API-Version': 'v1' });
    expect(fields).toEqual([
      ['x-frame-options', 'DENY'],
      ['api-version', 'v1'],
    ]);
    for (const response of [make(), new Response('x')]) {
      setCheckedFields(response, fields);
      expect([response.headers.get('x-frame-options'), response.headers.get('api-version')]).toEqual(['DENY', 'v1']);
    }
  });

  it('names that are also names of object properties are fields like any other', () => {
    const bytes = make();
    const plain = new Response('x');
    for (const response of [bytes, plain]) {
      setHeader(response, '__proto__', 'a');
      setHeader(response, 'constructor', 'b');
      appendHeader(response, '__proto__', 'c');
    }
    expect([hasHeader(bytes, 'toString'), hasHeader(bytes, 'hasOwnProperty'), hasHeader(bytes, 'constructor')]).toEqual([false, false, true]);
    const fields = headerFields(bytes).fields;
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.entries(fields).filter(([name]) => name === '__proto__' || name === 'constructor')).toEqual([
      ['__proto__', 'a, c'],
      ['constructor', 'b'],
    ]);
    expect([bytes.headers.get('__proto__'), bytes.headers.get('constructor')]).toEqual([plain.headers.get('__proto__'), plain.headers.get('constructor')]);
    // A stored copy keeps them as fields too.
    const copy = BytesResponse.withCheckedFields(new Uint8Array(1), 200, fields);
    expect(Object.entries(headerFields(copy).fields)).toEqual(Object.entries(fields));
  });

  it('values with white space at the edges, or none at all, are kept as Headers keeps them', () => {
    for (const value of ['', ' ', '\t v \t', 'a  b', ' x', 'y ']) {
      const bytes = make();
      setHeader(bytes, 'X-Value', value);
      const plain = new Response('x');
      plain.headers.set('X-Value', value);
      expect(headerFields(bytes).fields['x-value'], JSON.stringify(value)).toBe(plain.headers.get('x-value'));
    }
  });

  it('a stored answer rebuilt from headerFields has the same fields, and its own map', async () => {
    const stored = headerFields(steps(make())).fields;
    const first = BytesResponse.withCheckedFields(new Uint8Array([1, 2]), 200, stored);
    const second = BytesResponse.withCheckedFields(new Uint8Array([1, 2]), 200, stored);
    setHeader(first, 'X-Request-Id', 'r-2');
    expect(headerFields(second).fields).toEqual(stored);
    expect(Object.fromEntries(first.headers)).toEqual({ ...stored, 'x-request-id': 'r-2' });
    expect([first.status, [...(await first.bytes())]]).toEqual([200, [1, 2]]);
  });
});
