/**
 * Security headers on every response (SECURITY.md): a Content-Security-Policy with no inline
 * or remote script, no framing, no MIME sniffing, a strict referrer policy, and HSTS when the
 * site is served over HTTPS.
 */

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Astro inlines small style blocks; styles cannot run code.
  "style-src 'self' 'unsafe-inline'",
  // Every image is the site's own (logos are copied and optimised at build, never hot-linked).
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * @param https whether this request reached the site over HTTPS (directly or via a trusted proxy)
 */
export function securityHeaders(https: boolean): Record<string, string> {
  return {
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(https ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
