/**
 * Security headers on every response (SECURITY.md): a Content-Security-Policy with no inline
 * or remote script, no framing, no MIME sniffing, a strict referrer policy, and HSTS when the
 * site is served over HTTPS.
 */

const directives = (formTargets: readonly string[]) => [
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
  // A form's redirect counts as its target: a page whose forms end at another site (Stripe's) names it.
  ['form-action', "'self'", ...formTargets].join(' '),
  "frame-ancestors 'none'",
];

/**
 * @param https whether this request reached the site over HTTPS (directly or via a trusted proxy)
 * @param formTargets other origins this page's forms may end at (the billing page: Stripe's pages)
 */
export function securityHeaders(https: boolean, formTargets: readonly string[] = []): Record<string, string> {
  return {
    'Content-Security-Policy': directives(formTargets).join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(https ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
