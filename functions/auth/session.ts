/**
 * The admin session: a signed cookie (HMAC-SHA256) that any instance holding the same secret
 * can verify without a shared store (DESIGN "Sign-in"). HTTP-only, SameSite=Lax, Secure
 * outside localhost, with an expiry inside the signed payload.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Role } from './users.ts';

export const SESSION_COOKIE = 'deals_session';

export interface Session {
  email: string;
  role: Role;
  /** Expiry, Unix seconds. */
  exp: number;
}

/** The cookie value for a session. */
export function signSession(session: Session, secret: string): string {
  const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
  return `${payload}.${mac(payload, secret)}`;
}

/** The session in a cookie value, if its signature holds and it has not expired. */
export function verifySession(value: string, secret: string, nowSeconds: number): Session | undefined {
  const [payload, signature] = value.split('.');
  if (!payload || !signature) return undefined;
  const expected = Buffer.from(mac(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Session;
    return typeof session.exp === 'number' && session.exp > nowSeconds && typeof session.email === 'string' ? session : undefined;
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
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

// --- internal ---

function mac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}
