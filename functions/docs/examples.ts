/**
 * Examples for the OpenAPI document made of the catalog served, answered by the same functions
 * as the API, so they are always real answers.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { dealsAnswer } from '../reads/deals.ts';
import { startupsAnswer } from '../reads/startups.ts';
import type { Json } from './openapi-kit.ts';
import type { Answer } from '../http/answer.ts';
import { payloadBytes } from '../http/bytes-response.ts';

/** The examples of one catalog (what the route table's operation descriptions may use). */
export type CatalogExamples = ReturnType<typeof catalogExamples>;

/**
 * Examples made of this catalog, answered by the functions the API answers with: a list and a
 * lookup of its first deal, a listing, request bodies that name its categories. Empty parts of a
 * catalog give no example.
 */
export function catalogExamples(catalog: Catalog) {
  const parse = (answer: Answer) => JSON.parse(new TextDecoder().decode(payloadBytes(answer.body))) as Json;
  const category = catalog.categories.deals.find((c) => c.scope === 'deals') ?? catalog.categories.deals[0];
  const list = catalog.deals.length > 0 ? parse(dealsAnswer(catalog, new URLSearchParams('limit=1'))) : undefined;
  const first = (list?.deals as Json[] | undefined)?.[0] as { id: string; slug: string } | undefined;
  const newDeal = {
    title: 'Acme Cloud: $5,000 in credits for startups',
    provider: 'Acme Cloud',
    category: category?.slug,
    applicationUrl: 'https://acme-cloud.example/startups',
    value: '$5,000 in credits',
    shortDescription: 'Cloud credits for pre-seed and seed startups, valid for 12 months.',
    tags: ['cloud', 'credits'],
    eligibility: ['Raised less than $2M', 'Founded in the last 5 years'],
  };
  const listing = catalog.startups[0];
  const startupCategory = catalog.categories.startups[0];
  const newStartup = {
    name: 'Acme Invoices',
    category: startupCategory?.slug,
    summary: 'Invoicing for freelancers, profitable since 2024.',
    revenue: 120000,
    revenueDisplay: '$120k ARR',
    askingPrice: 360000,
    country: 'US',
    description: 'A two-person invoicing business with 900 paying customers.',
  };
  return {
    dealId: first?.id,
    dealSlug: first?.slug,
    startupId: listing?.id,
    startupSlug: listing?.slug,
    deals:
      first && list
        ? {
            list: { summary: '`GET /api/v1/deals?limit=1`', value: list },
            lookup: { summary: `\`GET /api/v1/deals?slug=${first.slug}\``, value: parse(dealsAnswer(catalog, new URLSearchParams({ slug: first.slug }))) },
          }
        : undefined,
    startups: startupExample(catalog),
    createDeal: category
      ? {
          single: { summary: 'One new deal (slug, id, status, flags and date filled)', value: newDeal },
          bulk: { summary: 'Bulk upsert by slug', value: { deals: [{ ...newDeal, slug: 'acme-cloud-credits' }] } },
        }
      : undefined,
    updateDeal: first ? { change: { summary: 'Mark a deal limited and remove its time to apply', value: { id: first.id, status: 'limited', timeToApply: null } } } : undefined,
    createStartup: startupCategory ? { single: { summary: 'One new listing (slug, id, flags and date filled)', value: newStartup } } : undefined,
    updateStartup: listing ? { change: { summary: 'Mark a listing sold and remove its asking price', value: { id: listing.id, forSale: false, askingPrice: null } } } : undefined,
    revertDeal: first ? revertExample(first.id) : undefined,
    revertStartup: listing ? revertExample(listing.id) : undefined,
    submitDeal: {
      submission: {
        summary: 'A discount with a redemption link',
        value: {
          company_name: 'Acme Analytics',
          website_url: 'https://acme-analytics.example',
          benefit_description: '50% off the Growth plan for the first year for startups under two years old.',
          category: 'saas',
          deal_value: '50% off for 12 months',
          redemption_method: 'link',
          redemption_link: 'https://acme-analytics.example/startups',
          submitter_email: 'founder@acme-analytics.example',
          ...(category ? { site_category: category.slug } : {}),
        },
      },
    },
    approve: category ? { approve: { summary: 'Publish as an active deal in a chosen category', value: { id: 'sub-4f3c2b1a09e8d7c6', status: 'active', category: category.slug } } } : undefined,
    health: {
      ok: { summary: 'All is well', value: { success: true, status: 'ok', problems: [], catalogVersion: catalog.version, deals: catalog.deals.length, startups: catalog.startups.length } },
      degraded: {
        summary: 'Serving, but the content store cannot take writes',
        value: { success: true, status: 'degraded', problems: ['store_unwritable'], catalogVersion: catalog.version, deals: catalog.deals.length, startups: catalog.startups.length },
      },
    },
    mcp: {
      initialize: {
        summary: 'Start: agree on a protocol version',
        value: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'example-agent', version: '1.0.0' } } },
      },
      search: { summary: 'Call the search tool', value: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_deals', arguments: { query: 'cloud credits', limit: 3 } } } },
    },
    a2a: {
      text: {
        summary: 'Ask in words (searches deals and programs)',
        value: { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'cloud credits for a pre-seed startup' }] } } },
      },
      filters: {
        summary: 'Filters in a data part, named as GET /api/v1/startups names them',
        value: {
          jsonrpc: '2.0',
          id: 2,
          method: 'SendMessage',
          params: { message: { messageId: 'msg-2', role: 'ROLE_USER', parts: [{ data: { skill: 'search_startups', category: 'saas', limit: 5 } }] } },
        },
      },
    },
  };
}

/** A revert of a record by id (the commit id is a placeholder: real ones come from its history). */
function revertExample(id: string): Json {
  return { revert: { summary: 'Put back the version a commit of its history made', value: { id, commit: '3f786850e387550fdab836ed7e6dc881de23001b' } } };
}

/** A real answer of GET /startups that lists one listing: the first whose name, country and category pick it alone. */
function startupExample(catalog: Catalog): Json | undefined {
  for (const startup of catalog.startups.slice(0, 20)) {
    const query = new URLSearchParams({ search: startup.name, category: startup.category, ...(startup.country ? { country: startup.country } : {}) });
    const answer = JSON.parse(new TextDecoder().decode(payloadBytes(startupsAnswer(catalog, query).body))) as { total: number };
    if (answer.total === 1) return { listing: { summary: `\`GET /api/v1/startups?${query}\``, value: answer } };
  }
  return undefined;
}
