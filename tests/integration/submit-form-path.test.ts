/**
 * The site's own form path (functions/writes/submit-deal.ts `submitForm`, which /submit/ calls
 * through `Astro.locals.submitDeal`), on the real server's dependencies: the API's limits, rules
 * and store, answered as data: every problem as a code, the values as typed, SPEC's `category`
 * derived from the chosen site category. The page itself is tested in the browser
 * (tests/e2e/suites/submit.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { submitForm } from '../../functions/writes/submit-deal.ts';
import type { FormSubmission } from '../../src/schemas/submission.ts';
import { FIXTURES, useTestServer } from '../helpers/server.ts';
import { callFrom } from '../helpers/writes-harness.ts';

const server = useTestServer(join(FIXTURES, 'valid'));

let next = 1;
const valid = (): Record<string, string> => {
  const n = next++;
  return {
    company_name: `Form Path Co ${n}`,
    website_url: `https://form-path-${n}.example`,
    site_category: 'cloud-credits',
    benefit_description: 'Twenty percent off the first year for startups.',
    deal_value: '20% off',
    redemption_method: 'link',
    redemption_link: `https://form-path-${n}.example/startups`,
  };
};

/** Post fields as the browser posts the form (urlencoded) or as multipart. */
function post(fields: Record<string, string> | Array<[string, string]>, from: string, multipart = false): Promise<FormSubmission> {
  const entries = Array.isArray(fields) ? fields : Object.entries(fields);
  let body: BodyInit;
  if (multipart) {
    const form = new FormData();
    for (const [name, value] of entries) form.append(name, value);
    body = form;
  } else body = new URLSearchParams(entries);
  return submitForm(new Request('http://site.test/submit/', { method: 'POST', body }), server.deps, from);
}

const stored = (id: string): Record<string, unknown> => {
  const file = join(server.config.dataDir, 'submissions', 'pending', `${id}.json`);
  expect(existsSync(file)).toBe(true);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
};

describe('accepted', () => {
  test.each([
    ['cloud-credits', 'cloud'],
    ['saas-discounts', 'saas'],
    ['accelerators', 'other'],
  ])('site category %s: stored with it, and with SPEC category %s derived from it', async (siteCategory, category) => {
    const outcome = await post({ ...valid(), site_category: siteCategory }, '127.0.50.1');
    if (!outcome.accepted) throw new Error(JSON.stringify(outcome));
    expect(stored(outcome.id)).toMatchObject({ site_category: siteCategory, category });
  });

  test('a SPEC category sent by the form is kept as sent', async () => {
    const outcome = await post({ ...valid(), site_category: 'accelerators', category: 'legal' }, '127.0.50.2');
    if (!outcome.accepted) throw new Error(JSON.stringify(outcome));
    expect(stored(outcome.id)).toMatchObject({ site_category: 'accelerators', category: 'legal' });
  });

  test('multipart, a checked box and a coupon code', async () => {
    const outcome = await post({ ...valid(), redemption_method: 'code', redemption_link: 'SAVE20', is_exclusive: 'true' }, '127.0.50.3', true);
    if (!outcome.accepted) throw new Error(JSON.stringify(outcome));
    expect(stored(outcome.id)).toMatchObject({ redemption_method: 'code', redemption_link: 'SAVE20', is_exclusive: true });
  });
});

describe('refused: status 400, every problem as a code, the values as typed', () => {
  test('several problems at once, one per field, in the order found; nothing stored', async () => {
    const fields = { ...valid(), company_name: 'A', website_url: 'not a url', site_category: '', benefit_description: ' short ', submitter_email: 'nobody', is_exclusive: 'maybe' };
    const outcome = await post(fields, '127.0.50.4');
    expect(outcome).toEqual({
      accepted: false,
      status: 400,
      values: fields,
      problems: [
        { field: 'website_url', problem: 'invalid_url' },
        // No site category, so no SPEC category: shown at the Category select.
        { field: 'site_category', problem: 'required' },
        { field: 'company_name', problem: 'too_short' },
        { field: 'benefit_description', problem: 'too_short' },
        { field: 'is_exclusive', problem: 'invalid' },
        { field: 'submitter_email', problem: 'invalid_email' },
      ],
    });
  });

  test('a site category the catalog does not have: not_allowed', async () => {
    const outcome = await post({ ...valid(), site_category: 'crypto' }, '127.0.50.5');
    expect(outcome).toMatchObject({ accepted: false, status: 400, problems: [{ field: 'site_category', problem: 'not_allowed' }] });
  });

  test("values: only the submission's fields, the first of repeated names, as typed (not trimmed)", async () => {
    const outcome = await post([...Object.entries({ ...valid(), company_name: ' A ' }), ['company_name', 'Second'], ['password', 'secret']], '127.0.50.6');
    if (outcome.accepted) throw new Error('accepted');
    expect(outcome.values.company_name).toBe(' A ');
    expect(outcome.values).not.toHaveProperty('password');
  });

  test('a body that is no form: a problem of the whole form, nothing else said', async () => {
    const outcome = await submitForm(new Request('http://site.test/submit/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }), server.deps, '127.0.50.7');
    expect(outcome).toEqual({ accepted: false, status: 400, values: {}, problems: [], form: 'invalid' });
  });
});

describe('the same limits as the API', () => {
  test("5 accepted per address per hour, counted with the API's: the sixth is too_many with the wait; refused ones do not count", async () => {
    const from = '127.0.51.1';
    expect((await post({ ...valid(), company_name: 'A' }, from)).accepted).toBe(false);
    for (let i = 0; i < 4; i++) expect((await post(valid(), from)).accepted).toBe(true);
    // One through the API, from the same address: the same budget.
    const api = await callFrom(from, server.url, 'POST', '/api/v1/submit-deal', { body: { ...valid(), category: 'cloud' }, origin: null });
    expect(api.status, api.text).toBe(201);
    const limited = await post(valid(), from);
    expect(limited).toMatchObject({ accepted: false, status: 429, form: 'too_many', problems: [] });
    if (limited.accepted) throw new Error('accepted');
    expect(limited.retryAfterSeconds).toBeGreaterThan(3500);
    expect(limited.values.company_name).toMatch(/^Form Path Co/);
  });

  test('the submit policy of the API route (60 posts a minute per address) holds for the form', async () => {
    const from = '127.0.51.2';
    const outcomes: FormSubmission[] = [];
    for (let i = 0; i < 61; i++) outcomes.push(await post({ ...valid(), company_name: 'A' }, from));
    expect(outcomes.slice(0, 60).every((o) => !o.accepted && o.status === 400)).toBe(true);
    expect(outcomes[60]).toMatchObject({ accepted: false, status: 429, form: 'too_many' });
  });
});
