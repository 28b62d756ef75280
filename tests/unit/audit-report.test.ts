/**
 * `npm run audit` passes, fails or says NOT CHECKED for the right reasons: only an unreachable
 * advisory service is "not checked"; any other audit error fails the step.
 */
import { describe, expect, test } from 'vitest';
import { auditVerdict } from '../../scripts/_audit-report.ts';

describe('auditVerdict', () => {
  test('no high or critical advisories: pass', () => {
    expect(auditVerdict({ metadata: { vulnerabilities: { low: 2, moderate: 1, high: 0, critical: 0 } } }).kind).toBe('pass');
  });

  test('a high or a critical advisory: fail', () => {
    expect(auditVerdict({ metadata: { vulnerabilities: { high: 1 } } }).kind).toBe('fail');
    expect(auditVerdict({ metadata: { vulnerabilities: { critical: 1 } } }).kind).toBe('fail');
  });

  test('the advisory service unreachable (a proxy answering 405, DNS failure, refused connection): not checked', () => {
    expect(auditVerdict({ statusCode: 405, message: '405 Method Not Allowed - POST …/advisories/bulk', error: { summary: '' } }).kind).toBe('not-checked');
    expect(auditVerdict({ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND registry.npmjs.org', error: {} }).kind).toBe('not-checked');
    expect(auditVerdict({ error: { code: 'ECONNREFUSED', summary: 'connect ECONNREFUSED' } }).kind).toBe('not-checked');
  });

  test('any other audit error fails: no lock file, a bad request, an unknown error', () => {
    expect(auditVerdict({ error: { code: 'ENOLOCK', summary: 'This command requires an existing lockfile.' } }).kind).toBe('fail');
    expect(auditVerdict({ statusCode: 400, message: '400 Bad Request', error: {} }).kind).toBe('fail');
    expect(auditVerdict({ error: { summary: 'something else' } }).kind).toBe('fail');
    expect(auditVerdict({}).kind).toBe('fail');
  });
});
