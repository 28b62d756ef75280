/**
 * `parseFilters`: the filters agents send as JSON (A2A data parts, MCP arguments) are read by the
 * API's own parameter tables, so they accept and refuse exactly what the query string does.
 */
import { describe, expect, test } from 'vitest';
import { DEAL_LIST_PARAMS, parseFilters, parseQuery, STARTUP_LIST_PARAMS } from '../../src/schemas/query.ts';

describe('parseFilters', () => {
  test('numbers and booleans count as their text: the same answer as the query string', () => {
    const fromJson = parseFilters(DEAL_LIST_PARAMS, { search: 'aws', limit: 5, featured: true, scope: 'all' });
    expect(fromJson).toEqual(parseQuery(DEAL_LIST_PARAMS, new URLSearchParams('search=aws&limit=5&featured=true&scope=all')));
    expect(fromJson).toEqual({ ok: true, value: { search: 'aws', limit: 5, featured: 'true', scope: 'all' } });
    expect(parseFilters(STARTUP_LIST_PARAMS, { minRevenue: 100000, forSale: false })).toEqual({ ok: true, value: { minRevenue: 100000, forSale: 'false' } });
  });

  test('null, undefined, unknown names and inherited names are ignored', () => {
    expect(parseFilters(DEAL_LIST_PARAMS, { search: null, category: undefined, colour: 'red', constructor: 'x', toString: 1 })).toEqual({ ok: true, value: {} });
  });

  test('a refused value names the parameter and the allowed values, as the API does', () => {
    expect(parseFilters(DEAL_LIST_PARAMS, { status: 'nope' })).toEqual({
      ok: false,
      problem: { name: 'status', message: 'expected one of active, expired, coming-soon, limited, all', allowed: 'active, expired, coming-soon, limited, all' },
    });
    expect(parseFilters(DEAL_LIST_PARAMS, { limit: 0 })).toMatchObject({ ok: false, problem: { name: 'limit', message: 'expected at least 1' } });
    expect(parseFilters(DEAL_LIST_PARAMS, { featured: false })).toMatchObject({ ok: false, problem: { name: 'featured' } });
  });

  test('objects and arrays are refused, not turned into text', () => {
    expect(parseFilters(DEAL_LIST_PARAMS, { search: { $ne: '' } })).toMatchObject({ ok: false, problem: { name: 'search', message: 'expected any text' } });
    expect(parseFilters(STARTUP_LIST_PARAMS, { category: ['saas'] })).toMatchObject({ ok: false, problem: { name: 'category' } });
  });
});
