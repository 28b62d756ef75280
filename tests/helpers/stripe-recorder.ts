/**
 * A RECORDING SERVER standing in for Stripe's API on 127.0.0.1 (this machine cannot reach
 * api.stripe.com): the server under test is pointed at it with STRIPE_API_URL and calls it through
 * the official Stripe library, exactly as it would call Stripe. It records each request (method,
 * path, `Authorization`, the form-encoded parameters the library sends) and answers what the
 * tests need: a Checkout session or a portal session whose `url` is a page of this server, and a
 * cancelled subscription (`sub_missing…`: one Stripe does not have). It is
 * not Stripe: it checks nothing and charges nothing; what only Stripe's servers can show is
 * listed in docs/billing.md.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The form fields as the library encoded them (`line_items[0][price]` …). */
  params: Record<string, string>;
}

export interface StripeRecorder {
  /** `http://127.0.0.1:<port>`: the STRIPE_API_URL to give the server. */
  url: string;
  requests: RecordedRequest[];
  /** Answer the next API call with this status and Stripe error body instead (a network failure: `status` 0 closes the connection). */
  failNext: (status: number, error?: { type: string; code?: string; message?: string }) => void;
  stop: () => Promise<void>;
}

export async function startStripeRecorder(): Promise<StripeRecorder> {
  const requests: RecordedRequest[] = [];
  const failures: Array<{ status: number; error?: { type: string; code?: string; message?: string } }> = [];
  let serial = 0;
  let base = '';
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      // The pages Checkout and the portal would be: a browser sent there lands somewhere that says what it is.
      if (request.method === 'GET' && /^\/(pay|portal)\//.test(path)) {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        response.end(`<!doctype html><title>Recording server</title><p>Recording server, not Stripe: ${path}</p>`);
        return;
      }
      const params = Object.fromEntries(new URLSearchParams(body));
      requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization, params });
      const failure = failures.shift();
      if (failure?.status === 0) {
        request.socket.destroy();
        return;
      }
      if (failure) return send(response, failure.status, { error: { message: failure.error?.message ?? 'Recorded failure.', ...failure.error } });
      serial += 1;
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        return send(response, 200, { id: `cs_test_${serial}`, object: 'checkout.session', mode: params.mode, url: `${base}/pay/cs_test_${serial}` });
      }
      if (request.method === 'POST' && path === '/v1/billing_portal/sessions') {
        return send(response, 200, { id: `bps_test_${serial}`, object: 'billing_portal.session', customer: params.customer, return_url: params.return_url, url: `${base}/portal/bps_test_${serial}` });
      }
      const cancelled = request.method === 'DELETE' ? /^\/v1\/subscriptions\/([\w-]+)$/.exec(path)?.[1] : undefined;
      if (cancelled?.startsWith('sub_missing')) return send(response, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${cancelled}'` } });
      if (cancelled) return send(response, 200, { id: cancelled, object: 'subscription', status: 'canceled' });
      send(response, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method} ${path}).` } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    failNext: (status, error) => failures.push({ status, error }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- internal ---

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: import('node:http').ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_recorded_${Date.now()}` });
  response.end(JSON.stringify(body));
}
