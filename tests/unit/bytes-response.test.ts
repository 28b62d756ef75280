import { describe, expect, it } from 'vitest';
import { BytesResponse } from '../../functions/http/bytes-response.ts';

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
    expect(response.payload[0]).toBe('{'.charCodeAt(0));
  });
});
