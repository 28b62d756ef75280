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
    ['no description', { benefit_description: '' }, 'required', 'benefit_description'],
    ['a category not in the list', { category: 'crypto' }, 'not_allowed', 'category'],
    ['a website that is no URL', { website_url: 'not a url' }, 'invalid_url', 'website_url'],
    ['a redemption link that is no URL', { redemption_link: 'call us' }, 'invalid_url', 'redemption_link'],
    ['an e-mail that is no address', { submitter_email: 'nobody' }, 'invalid_email', 'submitter_email'],
  ])('%s', async (_name, change, code, field) => {
    const query = await postForm('127.0.30.1', { ...valid(1), ...change });
    expect(Object.fromEntries(query)).toEqual({ error: code, field });
  });

  test('the sixth accepted submission in an hour: too_many, no field', async () => {
    for (let n = 10; n < 15; n++) expect((await postForm('127.0.30.3', valid(n))).get('id')).toMatch(/\S/);
    expect(Object.fromEntries(await postForm('127.0.30.3', valid(15)))).toEqual({ error: 'too_many' });
  });
});
