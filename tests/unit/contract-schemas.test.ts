/**
 * The contract schemas the HTTP tests use are SPEC's, not the server's: strict and without
 * defaults, so an answer that forgets a field fails where the server's own schema would fill it in.
 */
import { describe, expect, test } from 'vitest';
import { DealSchema } from '../../src/schemas/deal.ts';
import { DealContractSchema, StartupContractSchema } from '../helpers/api-schemas.ts';

const deal = {
  id: 'd-1',
  slug: 'acme-credits',
  title: 'Acme credits',
  provider: 'Acme',
  category: 'cloud-credits',
  status: 'active',
  applicationUrl: 'https://acme.example/apply',
  featured: false,
  recommended: true,
  verified: true,
};

describe('DealContractSchema', () => {
  test('accepts a full answer', () => {
    expect(DealContractSchema.safeParse(deal).success).toBe(true);
  });

  for (const field of ['featured', 'recommended', 'verified', 'applicationUrl', 'status'] as const) {
    test(`refuses an answer without \`${field}\` (the server's own schema would ${field === 'featured' || field === 'recommended' || field === 'verified' ? 'fill in a default' : 'refuse it too'})`, () => {
      const { [field]: _dropped, ...rest } = deal;
      expect(DealContractSchema.safeParse(rest).success).toBe(false);
      if (field === 'featured' || field === 'recommended' || field === 'verified') expect(DealSchema.safeParse(rest).success).toBe(true);
    });
  }

  test('refuses fields SPEC does not name, non-http URLs and dates that are not calendar dates', () => {
    expect(DealContractSchema.safeParse({ ...deal, internal: 1 }).success).toBe(false);
    expect(DealContractSchema.safeParse({ ...deal, applicationUrl: 'javascript:alert(1)' }).success).toBe(false);
    expect(DealContractSchema.safeParse({ ...deal, lastUpdated: '2026-11-23T10:00:00Z' }).success).toBe(false);
  });
});

describe('StartupContractSchema', () => {
  test('refuses a listing without featured or forSale', () => {
    const listing = { id: 's-1', slug: 'shop', name: 'Shop', category: 'saas', featured: false, forSale: true };
    expect(StartupContractSchema.safeParse(listing).success).toBe(true);
    expect(StartupContractSchema.safeParse({ ...listing, forSale: undefined }).success).toBe(false);
    expect(StartupContractSchema.safeParse({ ...listing, featured: undefined }).success).toBe(false);
  });
});
