/**
 * The MCP tools and resources (SPEC: tools `search_deals`, `get_site_info`, `list_categories`;
 * issue 20: `get_deal`, `search_startups`, `recent_changes`; resources `llms.txt`,
 * `llms-full.txt`, `sitemap.xml`), registered on a fresh server per request. They call the same
 * functions as the JSON API: the pure catalog functions, and the change feed of GET /changes.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { changeLine, dealLine, listText, noDealsText, startupLine } from '../../src/agents/answer-text.ts';
import { markdownText } from '../../src/agents/markdown-policy.ts';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { dealScope } from '../../src/catalog/deal-facts.ts';
import { dealStats, findDeal, listDeals } from '../../src/catalog/deals-query.ts';
import { listStartups } from '../../src/catalog/startups-query.ts';
import { DEAL_STATUSES, DealSchema, type Deal } from '../../src/schemas/deal.ts';
import { REGIONS, STAGES } from '../../src/schemas/program.ts';
import { ChangeSchema, type Changes } from '../../src/schemas/answers.ts';
import { CHANGE_KINDS, CHANGES_PARAMS, DEAL_SORTS, parseFilters, STARTUP_LIST_PARAMS, type ChangesQuery } from '../../src/schemas/query.ts';
import { ApiError } from '../http/errors.ts';
import { StartupSchema, type Startup } from '../../src/schemas/startup.ts';

const DealSummary = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  provider: z.string(),
  category: z.string(),
  status: z.enum(DEAL_STATUSES),
  value: z.string().optional(),
  shortDescription: z.string().optional(),
  expiryDate: z.string().optional(),
  valueUsd: z.number().int().optional().describe('Estimated headline value in whole US dollars.'),
  equityPercent: z.number().optional().describe('Equity a program takes, in percent; 0 = none.'),
  stages: z.array(z.enum(STAGES)).optional().describe('Funding stages a program is for.'),
  regions: z.array(z.enum(REGIONS)).optional().describe('Where a program is open.'),
  nextDeadline: z.string().optional().describe('Next application deadline (YYYY-MM-DD).'),
  featured: z.boolean().describe('Paid placement (sponsored).'),
  recommended: z.boolean().describe('Editorial pick.'),
  applicationUrl: z.string(),
  pageUrl: z.string(),
});

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** What the tools read besides the catalog. */
export interface McpSources {
  /** The text of a document (`/llms-full.txt`) for the catalog, from the documents' cache. */
  documentText: (path: string) => string;
  /** Told of every `search_deals` call with a query and how many deals it matched (the search-gap counter). */
  searched?: ((query: string, matches: number) => void) | undefined;
  /** A page of the change feed, as GET /api/v1/changes answers it (reads/changes.ts); throws ApiError. */
  changes?: ((query: ChangesQuery) => Promise<Changes>) | undefined;
}

/**
 * A server with every tool and resource, answering from `catalog`.
 * @example buildMcpServer(catalog, '1.0.0', { documentText: (path) => documentText(path, catalog, deps) })
 */
export function buildMcpServer(catalog: Catalog, version: string, sources: McpSources): McpServer {
  const { documentText, searched, changes } = sources;
  const server = new McpServer({ name: catalog.site.name, version }, { instructions: `Search ${catalog.site.name}: verified startup deals, credits and programs. Read-only; no credentials needed.` });
  const url = (path: string) => absolute(catalog.site.baseUrl, path);

  server.registerTool(
    'search_deals',
    {
      title: 'Search deals',
      description:
        'Search and filter verified startup deals, credits and programs (accelerators, incubators, grants); deals and programs together unless `scope` says otherwise. ' +
        "Matching is forgiving: case, accents and punctuation are ignored, words are stemmed, typos are tolerated (none under 5 letters, one for 5 to 8, two from 9), the last word also matches as a prefix, and the editors' synonyms apply (yc = y combinator, equity-free = without equity). " +
        'Every word is preferred but not required: deals matching all words rank first, then fewer. Results are ranked by relevance (a sponsored deal never outranks a better match), ties broken editorially; without a query, featured, recommended, then newest first; `sort` orders by estimated value, closing date or last update instead. ' +
        'Programs can be filtered by the facts founders compare: no equity taken, funding stage, region. ' +
        'An empty result says what was searched and suggests categories to try.',
      inputSchema: {
        query: z.string().max(500).optional().describe('Free text, such as "aws credits"; omit to list.'),
        category: z.string().max(120).optional().describe('Category slug (see list_categories), such as "cloud-credits".'),
        status: z
          .enum([...DEAL_STATUSES, 'all'])
          .optional()
          .describe('Lifecycle filter; default: every status except expired.'),
        scope: z.enum(['deals', 'programs', 'all']).optional().describe('Commercial deals, programs, or both; default all (both). A category limits the results to itself either way.'),
        featured: z.boolean().optional().describe('Only featured (sponsored) deals.'),
        recommended: z.boolean().optional().describe('Only editorially recommended deals.'),
        sort: z
          .enum(DEAL_SORTS)
          .optional()
          .describe(
            'Order: relevance (default), value (highest estimated USD value first), expiry (closing soonest first), newest (most recently updated first). With a query, deals matching more words still come first.',
          ),
        equity: z.enum(['none']).optional().describe('Programs only: "none" keeps programs that take no equity.'),
        stage: z.enum(STAGES).optional().describe('Programs only: for this funding stage.'),
        region: z.enum(REGIONS).optional().describe('Programs only: open in this region (worldwide programs match every region).'),
        limit: z.number().int().min(1).max(50).default(10).describe('How many deals to return (1 to 50).'),
      },
      outputSchema: { total: z.number().int().describe('Matches before the limit.'), count: z.number().int(), deals: z.array(DealSummary) },
      annotations: { title: 'Search deals', ...READ_ONLY },
    },
    async ({ query, category, status, scope = 'all', featured, recommended, sort, equity, stage, region, limit }) => {
      // DESIGN "search scope outside the API": agents search every type unless told otherwise.
      const { positions, stats } = listDeals(catalog, {
        search: query,
        category,
        status,
        scope,
        featured: featured ? 'true' : undefined,
        recommended: recommended ? 'true' : undefined,
        sort,
        equity,
        stage,
        region,
        limit,
      });
      if (query !== undefined && query.trim() !== '') searched?.(query, stats.total);
      const deals = positions.map((p) => summary(catalog.deals[p] as Deal, url));
      const structured = { total: stats.total, count: deals.length, deals };
      const text =
        stats.total === 0
          ? noDealsText(catalog, query, scope)
          : listText(
              stats.total,
              'deal',
              deals.map((d) => dealLine(d, d.pageUrl)),
            );
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  );

  server.registerTool(
    'get_site_info',
    {
      title: 'Site information',
      description: 'Name, description, where the API, OpenAPI, MCP and llms files are, and how many deals there are by scope and status.',
      outputSchema: {
        name: z.string(),
        description: z.string(),
        url: z.string(),
        api: z.object({ baseUrl: z.string(), openapi: z.string(), mcp: z.string(), llmsTxt: z.string(), llmsFullTxt: z.string(), sitemap: z.string(), apiCatalog: z.string(), agentCard: z.string() }),
        counts: z.object({
          byScope: z.record(z.string(), z.number().int()),
          byStatus: z.record(z.string(), z.number().int()),
          startups: z.number().int(),
          startupsForSale: z.number().int(),
        }),
      },
      annotations: { title: 'Site information', ...READ_ONLY },
    },
    async () => {
      const byScope: Record<string, number> = { deals: 0, programs: 0 };
      const byStatus: Record<string, number> = Object.fromEntries(DEAL_STATUSES.map((s) => [s, 0]));
      catalog.deals.forEach((deal, i) => {
        const scope = dealScope(catalog.dealFacts, i);
        byScope[scope] = (byScope[scope] ?? 0) + 1;
        byStatus[deal.status] = (byStatus[deal.status] ?? 0) + 1;
      });
      const info = {
        name: catalog.site.name,
        description: catalog.site.description,
        url: url('/'),
        api: {
          baseUrl: url(paths.api),
          openapi: url(paths.openapi),
          mcp: url(paths.mcp),
          llmsTxt: url(paths.llms),
          llmsFullTxt: url(paths.llmsFull),
          sitemap: url(paths.sitemap),
          apiCatalog: url(paths.apiCatalog),
          agentCard: url(paths.agentCard),
        },
        counts: { byScope, byStatus, startups: catalog.startups.length, startupsForSale: catalog.startups.filter((s) => s.forSale).length },
      };
      return { content: [{ type: 'text', text: JSON.stringify(info, null, 2) }], structuredContent: info };
    },
  );

  server.registerTool(
    'list_categories',
    {
      title: 'List categories',
      description: 'Every deal category with its slug, name, scope (deals or programs), description and how many live deals it has.',
      outputSchema: {
        categories: z.array(z.object({ slug: z.string(), name: z.string(), scope: z.enum(['deals', 'programs']), description: z.string().optional(), dealCount: z.number().int() })),
      },
      annotations: { title: 'List categories', ...READ_ONLY },
    },
    async () => {
      const live = dealStats(
        catalog.deals.filter((d) => d.status !== 'expired'),
        'all',
      ).byCategory;
      const categories = catalog.categories.deals.map((c) => ({ slug: c.slug, name: c.name, scope: c.scope, ...(c.description ? { description: c.description } : {}), dealCount: live[c.slug] ?? 0 }));
      const text = categories.map((c) => `- ${c.slug} (${c.scope}): ${markdownText(c.name)}, ${c.dealCount} live`).join('\n');
      return { content: [{ type: 'text', text }], structuredContent: { categories } };
    },
  );

  server.registerTool(
    'get_deal',
    {
      title: 'Get one deal',
      description:
        'One deal or program by `slug` or `id` (as search_deals returns them), with every published field: the full description, eligibility, requirements, value, dates and links. Answers what GET /api/v1/deals?slug=… answers.',
      inputSchema: {
        slug: z.string().max(200).optional().describe('The deal\'s slug, such as "aws-activate".'),
        id: z.string().max(200).optional().describe("The deal's id; with `slug` too, both must name the same deal."),
      },
      outputSchema: { deal: DealSchema.describe('The deal as GET /api/v1/deals?slug= answers it.'), pageUrl: z.string() },
      annotations: { title: 'Get one deal', ...READ_ONLY },
    },
    async ({ slug, id }) => {
      if (slug === undefined && id === undefined) return toolError('Give `slug` or `id` (search_deals lists both).');
      const deal = findDeal(catalog, { slug, id });
      if (!deal) {
        const named = [slug !== undefined && `slug "${markdownText(slug)}"`, id !== undefined && `id "${markdownText(id)}"`].filter(Boolean).join(' and ');
        return toolError(`No deal matches ${named}. Find deals with search_deals.`);
      }
      const pageUrl = url(paths.deal(deal));
      const text = [
        `# ${markdownText(deal.title)} (${markdownText(deal.provider)})`,
        `${deal.category}; ${deal.status}${deal.value ? `; ${markdownText(deal.value)}` : ''}`,
        deal.description ? markdownText(deal.description) : '',
        `Apply: ${deal.applicationUrl}`,
        `Page: ${pageUrl}`,
      ]
        .filter(Boolean)
        .join('\n\n');
      return { content: [{ type: 'text', text }], structuredContent: { deal, pageUrl } };
    },
  );

  server.registerTool(
    'search_startups',
    {
      title: 'Search startups for sale',
      description:
        'Filter startups and small businesses listed for sale, with the filters of GET /api/v1/startups: category, country, revenue bounds (inclusive; a listing without a revenue figure never satisfies one), source marketplace, featured, for sale, and free-text search. Order: featured, for sale, newest, name (with `search`: relevance first).',
      inputSchema: {
        // Typed for JSON; described, and read (below), by the API's own parameter table.
        search: z.string().max(500).optional().describe(STARTUP_LIST_PARAMS.search.description),
        category: z.string().max(120).optional().describe(STARTUP_LIST_PARAMS.category.description),
        country: z.string().max(2).optional().describe(STARTUP_LIST_PARAMS.country.description),
        minRevenue: z.number().int().optional().describe(STARTUP_LIST_PARAMS.minRevenue.description),
        maxRevenue: z.number().int().optional().describe(STARTUP_LIST_PARAMS.maxRevenue.description),
        source: z.string().max(120).optional().describe(STARTUP_LIST_PARAMS.source.description),
        featured: z.boolean().optional().describe(STARTUP_LIST_PARAMS.featured.description),
        forSale: z.boolean().optional().describe(STARTUP_LIST_PARAMS.forSale.description),
        limit: z.number().int().min(1).max(50).default(10).describe('How many listings to return (1 to 50).'),
      },
      outputSchema: { total: z.number().int().describe('Matches before the limit.'), count: z.number().int(), startups: z.array(StartupSchema.extend({ pageUrl: z.string() })) },
      annotations: { title: 'Search startups for sale', ...READ_ONLY },
    },
    async ({ limit, featured, ...filters }) => {
      // The API's own parameter table reads the filters, so both refuse and accept the same values.
      const parsed = parseFilters(STARTUP_LIST_PARAMS, { ...filters, featured: featured ? true : undefined });
      if (!parsed.ok) return toolError(`${parsed.problem.name}: ${parsed.problem.message}.`);
      const { positions, total } = listStartups(catalog, parsed.value);
      const startups = positions.slice(0, limit).map((p) => {
        const startup = catalog.startups[p] as Startup;
        return { ...startup, pageUrl: url(paths.startup(startup)) };
      });
      const text =
        total === 0
          ? 'No startup listing matches these filters.'
          : listText(
              total,
              'listing',
              startups.map((s) => startupLine(s, s.pageUrl)),
            );
      return { content: [{ type: 'text', text }], structuredContent: { total, count: startups.length, startups } };
    },
  );

  server.registerTool(
    'recent_changes',
    {
      title: 'Recent changes',
      description:
        'What changed in the catalog, newest first: deals and startups added, updated (with the names of the fields that changed), expired and removed, read from the history of the content, so edits made by hand in git count too; drafts never appear. ' +
        'Ask for what changed `since` a date or a commit (the `head` of an earlier answer: what changed after it); `next` pages on with `cursor`. Read a changed deal with get_deal. Answers what GET /api/v1/changes answers.',
      inputSchema: {
        since: z.string().max(64).optional().describe(CHANGES_PARAMS.since.description),
        kind: z.enum(CHANGE_KINDS).optional().describe(CHANGES_PARAMS.kind.description),
        limit: z.number().int().min(1).max(50).default(20).describe('How many changes to return (1 to 50).'),
        cursor: z.string().max(64).optional().describe(CHANGES_PARAMS.cursor.description),
      },
      outputSchema: {
        head: z.string().describe('The commit the feed was read at: pass it as `since` later for what changed after.'),
        changes: z.array(ChangeSchema),
        next: z.string().optional().describe('More changes match: pass it as `cursor`.'),
        complete: z.boolean().describe('false when older matching changes may be beyond what the feed keeps.'),
      },
      annotations: { title: 'Recent changes', ...READ_ONLY },
    },
    async (args) => {
      if (!changes) return toolError('The change feed is not available here.');
      // The API's own parameter table reads the arguments, so both refuse and accept the same values.
      const parsed = parseFilters(CHANGES_PARAMS, args);
      if (!parsed.ok) return toolError(`${parsed.problem.name}: ${parsed.problem.message}. Allowed: ${parsed.problem.allowed}.`);
      let answer: Changes;
      try {
        answer = await changes(parsed.value);
      } catch (error) {
        if (error instanceof ApiError) return toolError(`${error.message}${error.hint ? ` ${error.hint}` : ''}`);
        throw error;
      }
      const { success: _success, ...structured } = answer;
      const shown = answer.changes.length === 0 ? 'No changes match.' : answer.changes.map(changeLine).join('\n');
      const text = `${shown}\nRead at commit ${answer.head}${answer.next ? `; more with cursor ${answer.next}` : ''}.`;
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  );

  // The same text as GET of the document, rendered once per catalog version, not once per read.
  const resource = (name: string, path: string, mimeType: string, description: string) =>
    server.registerResource(name, url(path), { title: name, description, mimeType }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType, text: documentText(path) }],
    }));
  resource('llms.txt', paths.llms, 'text/markdown', 'Site summary and links for language models (llmstxt.org).');
  resource('llms-full.txt', paths.llmsFull, 'text/markdown', 'The whole public catalog as Markdown, deals grouped by category.');
  resource('sitemap.xml', paths.sitemap, 'application/xml', 'Every public page with its last modification date.');
  // The SDK declares `listChanged` for tools and resources, but a stateless server has no stream
  // to send that notification on, and the lists change only with the code: claim nothing.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } });
  return server;
}

// --- internal ---

/** A tool error the client shows (`isError`), never a protocol failure. */
function toolError(text: string): { content: { type: 'text'; text: string }[]; isError: true } {
  return { content: [{ type: 'text', text }], isError: true };
}

function summary(deal: Deal, url: (path: string) => string): z.infer<typeof DealSummary> {
  return {
    id: deal.id,
    slug: deal.slug,
    title: deal.title,
    provider: deal.provider,
    category: deal.category,
    status: deal.status,
    ...(deal.value ? { value: deal.value } : {}),
    ...(deal.shortDescription ? { shortDescription: deal.shortDescription } : {}),
    ...(deal.expiryDate ? { expiryDate: deal.expiryDate } : {}),
    ...(deal.valueUsd !== undefined ? { valueUsd: deal.valueUsd } : {}),
    ...(deal.equityPercent !== undefined ? { equityPercent: deal.equityPercent } : {}),
    ...(deal.stages ? { stages: deal.stages } : {}),
    ...(deal.regions ? { regions: deal.regions } : {}),
    ...(deal.nextDeadline ? { nextDeadline: deal.nextDeadline } : {}),
    featured: deal.featured,
    recommended: deal.recommended,
    applicationUrl: deal.applicationUrl,
    pageUrl: url(paths.deal(deal)),
  };
}
