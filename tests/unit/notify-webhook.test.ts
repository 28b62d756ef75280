/**
 * The webhook call (functions/notify/webhook.ts) against a real HTTP server on 127.0.0.1: one
 * JSON POST of `{ text }`; any answer but 2xx is a failure naming the status, never the URL; a
 * redirect is not followed (the URL is the webhook's secret, the message goes nowhere else).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postToWebhook } from '../../functions/notify/webhook.ts';

const seen: Array<{ path: string; type: string | undefined; body: string }> = [];
const server = createServer((request: IncomingMessage, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    seen.push({ path: request.url ?? '', type: request.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
    if (request.url === '/moved') response.writeHead(302, { Location: '/elsewhere' }).end();
    else if (request.url === '/refuses') response.writeHead(404).end('no such hook');
    else response.writeHead(200).end('ok');
  });
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('postToWebhook', () => {
  test('posts { text } as JSON', async () => {
    await postToWebhook(`${base}/hook`, 'New deal submission: Acme', 5000);
    expect(seen.at(-1)).toEqual({ path: '/hook', type: 'application/json', body: '{"text":"New deal submission: Acme"}' });
  });

  test('a refusal fails with the status and without the URL', async () => {
    await expect(postToWebhook(`${base}/refuses`, 'x', 5000)).rejects.toThrow(/^the webhook answered 404$/);
  });

  test('a redirect is not followed', async () => {
    seen.length = 0;
    await expect(postToWebhook(`${base}/moved`, 'x', 5000)).rejects.toThrow();
    expect(seen.map((s) => s.path)).toEqual(['/moved']);
  });
});
