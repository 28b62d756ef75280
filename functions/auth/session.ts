/**
 * The admin session: a signed cookie (HMAC-SHA256) that any instance holding the same secret
 * can verify without a shared store (DESIGN "Sign-in"). HTTP-only, SameSite=Lax, with an expiry
 * inside the signed payload; over HTTPS it is Secure and named with the `__Host-` prefix, so no
 * sibling subdomain or plain-http page can plant one. The payload also names the account's
 * session generation (`gen`: sign-out everywhere, a password or role change, removal and
 * re-adding all change it) and the session's own id (`sid`, which sign-out revokes).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Role } from './users.ts';

export const SESSION_COOKIE = 'deals_session';
/** The name over HTTPS: `__Host-` cookies must be Secure, Path=/ and carry no Domain. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The session cookie's name in a secure (HTTPS) or plain context. */
export const sessionCookieName = (secure: boolean): string => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

export interface Session {
  email: string;
  role: Role;
  /** Expiry, Unix seconds. */
  exp: number;
  /** The account's session generation when the session began. */
  gen: string;
  /** This session's id (what sign-out revokes). */
  sid: string;
}

/** The cookie value for a session. */
export function signSession(session: Session, secret: string): string {
  return seal(session, secret);
}

/** The session in a cookie value, if its signature holds and it has not expired. */
export function verifySession(value: string, secret: string, nowSeconds: number): Session | undefined {
  const session = unseal<Session>(value, secret, nowSeconds);
  return session && typeof session.email === 'string' && typeof session.gen === 'string' && typeof session.sid === 'string' ? session : undefined;
}

/** A signed, tamper-evident (not secret) value: base64url JSON, a dot, its HMAC. */
export function seal(data: { exp: number }, secret: string): string {
  const payload = Buffer.from(JSON.stringify(data)).toString('base64url');
  return `${payload}.${mac(payload, secret)}`;
}

/** The data in a sealed value, if its signature holds and its `exp` (Unix seconds) is still ahead. */
export function unseal<T extends { exp: number }>(value: string, secret: string, nowSeconds: number): T | undefined {
  const [payload, signature] = value.split('.');
  if (!payload || !signature) return undefined;
  const expected = Buffer.from(mac(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
    return typeof data?.exp === 'number' && data.exp > nowSeconds ? data : undefined;
  } catch {
    return undefined;
  }
}

/** The value of one cookie from a `Cookie` header. */
export function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** `Set-Cookie` for a session (or, with `value` empty, one that removes it). */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return cookieHeader(sessionCookieName(secure), value, { maxAgeSeconds, secure, path: '/' });
}

/**
 * A cookie the pages' scripts may read: it says only that a session was started in this
 * browser, so the pages ask for a member's saved items then and not on every visit. The server
 * never trusts it (the session cookie decides); set and cleared beside the session cookie.
 */
export const SIGNED_IN_HINT = 'deals_signed_in';

/** `Set-Cookie` for the hint (or, with `maxAgeSeconds` 0, its removal). */
export function signedInHint(maxAgeSeconds: number, secure: boolean): string {
  return [`${SIGNED_IN_HINT}=${maxAgeSeconds > 0 ? '1' : ''}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

/** `Set-Cookie` for an HTTP-only, SameSite=Lax cookie (Lax: it must come back on the provider's redirect). */
export function cookieHeader(name: string, value: string, options: { maxAgeSeconds: number; secure: boolean; path: string }): string {
  return [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${options.maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(options.secure ? ['Secure'] : [])].join('; ');
}

// --- internal ---

/** Shorter secrets are refused everywhere (SECURITY.md): an empty key would let anyone sign. */
export const MIN_SECRET_BYTES = 32;

function mac(payload: string, secret: string): string {
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) throw new Error(`the session secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return createHmac('sha256', secret).update(payload).digest('base64url');
}
