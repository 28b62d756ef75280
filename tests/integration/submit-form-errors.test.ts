/**
 * A refused plain form post goes back to /submit/ with an error code and a field name from
 * fixed sets, never with text (issue 11, item 12): the page shows its own message for the code,
 * so a link to /submit/?error=<anything> cannot put words on the site's own origin.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { submissionJsonSchema } from '../../src/schemas/submission.ts';
import { FIXTURES, useTestServer } from '../helpers/server.ts';
import { callFrom } from '../helpers/writes-harness.ts';

const server = useTestServer(join(FIXTURES, 'valid'));

/** The codes /submit/ knows (src/pages/submit/index.astro maps each to its message). */
const CODES = ['required', 'too_short', 'too_long', 'not_allowed', 'invalid_url', 'invalid_email', 'invalid', 'too_many', 'too_large'];
const FIELDS = Object.keys((submissionJsonSchema() as { properties: Record<string, unknown> }).properties);

const valid = (n: number): Record<string, string> => ({
  company_name: `Form Co ${n}`,
  website_url: `https://form-${n}.example`,
  benefit_description: 'Twenty percent off the first year for startups.',
  category: 'saas',
  deal_value: '20% off',
  redemption_link: `https://form-${n}.example/startups`,
});

/** Post fields as a browser form without JavaScript would; the redirect's query. */
async function postForm(from: string, fields: Record<string, string>): Promise<URLSearchParams> {
  const answer = await callFrom(from, server.url, 'POST', '/api/v1/submit-deal', {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html,application/xhtml+xml' },
  });
  expect(answer.status, answer.text).toBe(303);
  const location = new URL(answer.headers.get('location') ?? '', server.url);
  if (location.pathname === '/submit/thanks/') return location.searchParams;
  expect(location.pathname).toBe('/submit/');
  const query = location.searchParams;
  // Only a code and a field, each from its fixed set.
  expect([...query.keys()].filter((key) => key !== 'error' && key !== 'field')).toEqual([]);
  expect(CODES).toContain(query.get('error'));
  if (query.has('field')) expect(FIELDS).toContain(query.get('field'));
  return query;
}

describe('a refused form post redirects with a code and a field, never text', () => {
  test.each([
    ['a company name too short', { company_name: 'A' }, 'too_short', 'company_name'],
    ['a description too long', { benefit_description: 'x'.repeat(2001) }, 'too_long', 'benefit_description'],
    // An empty required field is the empty string, as in JSON (issue 14, item 9): refused by its length rule.
    ['no description', { benefit_description: '' }, 'too_short', 'benefit_description'],
    ['a checkbox sending a word that is no yes or no', { is_exclusive: 'maybe' }, 'invalid', 'is_exclusive'],
    ['a category not in the list', { category: 'crypto' }, 'not_allowed', 'category'],
    ['a website that is no URL', { website_url: 'not a url' }, 'invalid_url', 'website_url'],
    ['a redemption link that is no URL', { redemption_link: 'call us' }, 'invalid_url', 'redemption_link'],
    ['an e-mail that is no address', { submitter_email: 'nobody' }, 'invalid_email', 'submitter_email'],
    ['a site category the catalog does not have', { site_category: 'crypto' }, 'not_allowed', 'site_category'],
    // Several problems: the first, as `error` names it.
    ['a short company name and a bad e-mail', { company_name: 'A', submitter_email: 'nobody' }, 'too_short', 'company_name'],
  ])('%s', async (_name, change, code, field) => {
    const query = await postForm('127.0.30.1', { ...valid(1), ...change });
    expect(Object.fromEntries(query)).toEqual({ error: code, field });
  });

  test('a submission with no description at all: required', async () => {
    const { benefit_description: _left, ...rest } = valid(2);
    expect(Object.fromEntries(await postForm('127.0.30.1', rest))).toEqual({ error: 'required', field: 'benefit_description' });
  });

  test('the sixth accepted submission in an hour: too_many, no field', async () => {
    for (let n = 10; n < 15; n++) expect((await postForm('127.0.30.3', valid(n))).get('id')).toMatch(/\S/);
    expect(Object.fromEntries(await postForm('127.0.30.3', valid(15)))).toEqual({ error: 'too_many' });
  });
});

describe('an accepted form post: the fields as the browser sends them (issue 14, item 9)', () => {
  /** Each post from an address of its own, with a company and link of its own. */
  let next = 20;
  test.each([
    ['a checked box (value "on", as a box without a value sends)', { is_exclusive: 'on' }],
    ['a checked box (value "1")', { is_exclusive: '1' }],
    ['the box unchecked (the field absent)', {}],
    ['a company named "on"', { company_name: 'on' }],
    ['an empty deal value', { deal_value: '' }],
    ['the optional fields left empty', { submitter_email: '', logo_url: '' }],
  ])('%s: redirected to the thanks page', async (_name, change) => {
    const n = next++;
    const query = await postForm(`127.0.31.${n}`, { ...valid(n), ...change });
    expect(query.get('id')).toMatch(/^sub-[0-9a-f]{16}$/);
  });

  test('multipart/form-data (a form with enctype="multipart/form-data") gets the same redirects', async () => {
    const post = async (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const encoded = new Request('http://localhost/', { method: 'POST', body: form });
      const answer = await callFrom('127.0.32.1', server.url, 'POST', '/api/v1/submit-deal', {
        rawBody: await encoded.text(),
        headers: { 'Content-Type': encoded.headers.get('content-type') ?? '', Accept: 'text/html,application/xhtml+xml' },
      });
      expect(answer.status, answer.text).toBe(303);
      return new URL(answer.headers.get('location') ?? '', server.url);
    };
    const accepted = await post({ ...valid(40), is_exclusive: 'on', submitter_email: '' });
    expect(accepted.pathname).toBe('/submit/thanks/');
    const refused = await post({ ...valid(41), company_name: 'A' });
    expect(refused.pathname).toBe('/submit/');
    expect(Object.fromEntries(refused.searchParams)).toEqual({ error: 'too_short', field: 'company_name' });
  });
});
