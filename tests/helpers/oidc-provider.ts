/**
 * A real OpenID Connect provider for tests: `oidc-provider` on 127.0.0.1 with its development
 * login and consent pages, and a browser-like walk through them (redirects followed by hand,
 * cookies kept, forms posted), so sign-in tests exercise the whole authorization code flow.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface ProviderUser {
  email: string;
  emailVerified: boolean;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Register our callback once the site's port is known (the client is created then). */
  allowRedirect: (redirectUri: string) => void;
  stop: () => Promise<void>;
}

/** Start the provider's HTTP server; the provider itself is created by `allowRedirect`. */
export async function startOidcProvider(users: Record<string, ProviderUser>): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'deals-catalog';
  const clientSecret = 'a-test-client-secret-of-enough-length';
  return {
    issuer,
    clientId,
    clientSecret,
    allowRedirect: (redirectUri) => {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'], grant_types: ['authorization_code'] }],
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        cookies: { keys: ['a-test-cookie-signing-key'] },
        findAccount: (_ctx, id) => {
          const user = users[id];
          if (!user) return undefined;
          return { accountId: id, claims: () => ({ sub: id, email: user.email, email_verified: user.emailVerified }) };
        },
      });
      server.on('request', provider.callback());
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Cookies as a browser on 127.0.0.1 would keep them (ports share cookies; paths are ignored here). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Walk from `startUrl` as a browser would, signing in at the provider as `login` and
 * consenting, until a response comes from `siteOrigin` that is not a redirect to the provider.
 * Returns the site's final response (the callback's redirect).
 */
export async function signInThroughProvider(startUrl: string, login: string, jar: CookieJar, siteOrigin: string): Promise<Response> {
  let url = startUrl;
  let init: RequestInit = { method: 'GET' };
  for (let step = 0; step < 20; step += 1) {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), Cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get('location');
    if (new URL(url).origin === siteOrigin && url !== startUrl) return response;
    if (location) {
      url = new URL(location, url).href;
      init = { method: 'GET' };
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action) throw new Error(`unexpected page at ${url}: ${response.status} ${html.slice(0, 200)}`);
    const fields = new URLSearchParams();
    for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields.set(match[1] as string, match[2] as string);
    if (fields.get('prompt') === 'login') {
      fields.set('login', login);
      fields.set('password', 'any password');
    }
    url = new URL(action.replaceAll('&amp;', '&'), url).href;
    init = { method: 'POST', body: fields.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('the sign-in did not come back to the site');
}
