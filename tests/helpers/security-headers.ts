/**
 * The security headers every response carries (SECURITY.md "Headers on every response"),
 * asserted in one place for the HTTP and browser suites.
 */
import { expect } from 'vitest';

/** Assert the headers of one response; `label` names it in failures. */
export function expectSecurityHeaders(header: (name: string) => string | null | undefined, label: string): void {
  const csp = String(header('content-security-policy'));
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  expect(directives.get('script-src'), label).toEqual(["'self'"]);
  expect(directives.get('default-src'), label).toEqual(["'self'"]);
  expect(directives.get('object-src'), label).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(csp, label).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(header('x-content-type-options'), label).toBe('nosniff');
  expect(header('referrer-policy'), label).toBe('strict-origin-when-cross-origin');
  expect(header('x-frame-options'), label).toBe('DENY');
  expect(header('cross-origin-opener-policy'), label).toBe('same-origin');
  expect(header('x-request-id'), label).toMatch(/^[\w.:-]{1,64}$/);
}
