/**
 * Optional sign-in through an external OpenID Connect provider (DESIGN "Sign-in": identity is
 * delegated), with `openid-client`: authorization code flow with PKCE, state and nonce. The
 * provider says who someone is (a verified e-mail); the account book says what they may do: an
 * address it has signs in with its role, and one it does not have becomes a member
 * (oidc-login.ts). Editors are made with `npm run admin -- add <email> --role admin --sso`.
 *
 * The flow's secrets (state, nonce, PKCE verifier) travel in a short-lived signed cookie, so
 * any instance can finish a sign-in another one started.
 */
import type { Configuration } from 'openid-client';
import type { OidcConfig } from '../config.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import { seal, unseal } from './session.ts';

export const FLOW_COOKIE = 'deals_oidc';
/** How long a sign-in at the provider may take. */
export const FLOW_SECONDS = 10 * 60;

/** What the provider proved about the person signing in. */
export interface ProvenIdentity {
  email: string;
  subject: string;
  /** The page of this site to go to once signed in, as the flow began with it (checked again by the caller). */
  next?: string;
}

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  exp: number;
  next?: string;
}

/** Why a sign-in at the provider did not give an identity (shown on the login page). */
export class OidcFailure extends Error {
  readonly reason: 'provider_unavailable' | 'sso_failed' | 'sso_expired' | 'sso_unverified';
  constructor(reason: OidcFailure['reason']) {
    super(reason);
    this.reason = reason;
  }
}

export class OidcSignIn {
  private configuration: Promise<Configuration> | undefined;
  private readonly settings: OidcConfig;
  private readonly secret: string;

  constructor(settings: OidcConfig, secret: string) {
    this.settings = settings;
    this.secret = secret;
  }

  /** The provider's authorization URL and the cookie that carries this flow's secrets. */
  async begin(callbackUrl: string, nowSeconds: number, next?: string): Promise<{ location: string; flowCookie: string }> {
    const client = await import('openid-client');
    const config = await this.discover();
    const flow: Flow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      redirectUri: this.settings.redirectUri ?? callbackUrl,
      exp: nowSeconds + FLOW_SECONDS,
      ...(next ? { next } : {}),
    };
    const location = client.buildAuthorizationUrl(config, {
      redirect_uri: flow.redirectUri,
      scope: 'openid email',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    });
    return { location: location.href, flowCookie: seal(flow, this.secret) };
  }

  /** Finish the flow at the callback: exchange the code, check the ID token, return the e-mail. */
  async finish(callbackUrl: URL, flowCookie: string | undefined, nowSeconds: number): Promise<ProvenIdentity> {
    const flow = flowCookie ? unseal<Flow>(flowCookie, this.secret, nowSeconds) : undefined;
    if (!flow) throw new OidcFailure('sso_expired');
    const client = await import('openid-client');
    const config = await this.discover();
    let claims: { sub: string; email?: unknown; email_verified?: unknown };
    try {
      const tokens = await client.authorizationCodeGrant(
        config,
        callbackUrl,
        { expectedState: flow.state, expectedNonce: flow.nonce, pkceCodeVerifier: flow.verifier, idTokenExpected: true },
        { redirect_uri: flow.redirectUri },
      );
      const idToken = tokens.claims();
      if (!idToken) throw new Error('no ID token');
      // Many providers put e-mail claims only in the UserInfo answer (OIDC Core 5.4).
      claims = typeof idToken.email === 'string' ? idToken : await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
    } catch {
      // A refused code, a bad state or an ID token that does not verify: all the same to the user.
      throw new OidcFailure('sso_failed');
    }
    if (typeof claims.email !== 'string' || claims.email_verified !== true) throw new OidcFailure('sso_unverified');
    return { email: claims.email, subject: claims.sub, ...(typeof flow.next === 'string' ? { next: flow.next } : {}) };
  }

  /** The provider's metadata, fetched once; a failed fetch is retried by the next sign-in. */
  private discover(): Promise<Configuration> {
    this.configuration ??= import('openid-client')
      .then((client) =>
        client.discovery(new URL(this.settings.issuer), this.settings.clientId, undefined, this.settings.clientSecret ? client.ClientSecretBasic(this.settings.clientSecret) : client.None(), {
          // Plain http only for a provider on this machine (development and tests).
          execute: isLoopbackHost(new URL(this.settings.issuer).hostname) ? [client.allowInsecureRequests] : [],
          timeout: 10,
        }),
      )
      .catch(() => {
        this.configuration = undefined;
        throw new OidcFailure('provider_unavailable');
      });
    return this.configuration;
  }
}
