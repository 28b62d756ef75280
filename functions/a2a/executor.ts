/**
 * What the A2A agent does with a message (issue 20): the skills on the agent card, each run by
 * the catalog's own queries (the ones behind GET /api/v1/deals, GET /api/v1/startups and the MCP
 * tools). Every message is answered at once with a message, never a task: a short text and a
 * data part holding the records in the API's list shape.
 *
 * A message asks by text ("cloud credits for a pre-seed startup" searches deals; "startups: saas"
 * searches startups) or by a data part of filters named as the API names them
 * (`{ "search": "aws", "category": "cloud-credits", "limit": 5 }`; `"skill": "search_startups"`
 * for startups), read by the API's own parameter tables; text and data together: the text is
 * the search.
 */
import { randomUUID } from 'node:crypto';
import { Role, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { dealLine, listText, noDealsText, startupLine } from '../../src/agents/answer-text.ts';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { findDeal, listDeals } from '../../src/catalog/deals-query.ts';
import { listStartups } from '../../src/catalog/startups-query.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { DEAL_LIST_PARAMS, parseFilters, STARTUP_LIST_PARAMS, type ParamProblem } from '../../src/schemas/query.ts';
import type { Startup } from '../../src/schemas/startup.ts';

/** The skills a message can run (agent card `skills[].id`); `submit_deal` is the API's alone. */
export const A2A_SKILLS = ['search_deals', 'search_startups'] as const;
export type A2aSkill = (typeof A2A_SKILLS)[number];

/** Records in one answer unless `limit` says otherwise; at most {@link A2A_MAX_LIMIT}. */
export const A2A_DEFAULT_LIMIT = 10;
export const A2A_MAX_LIMIT = 50;

/** A text that starts with this searches startups: `startups: saas in the US`. */
const STARTUPS_PREFIX = /^\s*startups?\s*:\s*/i;

/** The startups' filters, plus the deals' `limit` (the API lists every startup match). */
const STARTUP_FILTERS = { ...STARTUP_LIST_PARAMS, limit: DEAL_LIST_PARAMS.limit };

/**
 * @param searched told of every deal search with text and how many deals it matched (the search-gap counter)
 * @example new DefaultRequestHandler(card, new InMemoryTaskStore(), new CatalogExecutor(catalog))
 */
export class CatalogExecutor implements AgentExecutor {
  private readonly catalog: Catalog;
  private readonly searched: ((query: string, matches: number) => void) | undefined;

  constructor(catalog: Catalog, searched?: (query: string, matches: number) => void) {
    this.catalog = catalog;
    this.searched = searched;
  }

  execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const parts = this.answer(context.userMessage);
    bus.publish(AgentEvent.message({ messageId: randomUUID(), contextId: context.contextId, taskId: '', role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] }));
    bus.finished();
    return Promise.resolve();
  }

  /** Nothing runs long enough to cancel: every message is answered before its request ends. */
  cancelTask(): Promise<void> {
    return Promise.resolve();
  }

  /** The parts of the answer to one message. */
  answer(message: Message): Part[] {
    const asked = readMessage(message);
    if ('problem' in asked) return [text(asked.problem), data({ error: asked.problem })];
    const url = (path: string) => absolute(this.catalog.site.baseUrl, path);
    return asked.skill === 'search_startups' ? this.searchStartups(asked.filters, url) : this.searchDeals(asked.filters, url);
  }

  private searchDeals(filters: Record<string, unknown>, url: (path: string) => string): Part[] {
    // DESIGN "search scope outside the API": agents search deals and programs together unless told otherwise.
    const parsed = parseFilters(DEAL_LIST_PARAMS, { scope: 'all', ...filters });
    if (!parsed.ok) return refused(parsed.problem);
    const query = parsed.value;
    if (query.slug !== undefined || query.id !== undefined) {
      const deal = findDeal(this.catalog, query);
      if (!deal) return [text('No deal matches that slug or id; search by text instead.'), data({ skill: 'search_deals', total: 0, count: 0, deals: [] })];
      return [text(listText(1, 'deal', [dealLine(deal, url(paths.deal(deal)))])), data({ skill: 'search_deals', total: 1, count: 1, deals: [deal] })];
    }
    const { positions, stats } = listDeals(this.catalog, { ...query, limit: Math.min(query.limit ?? A2A_DEFAULT_LIMIT, A2A_MAX_LIMIT) });
    if (query.search !== undefined && query.search.trim() !== '') this.searched?.(query.search, stats.total);
    const deals = positions.map((p) => this.catalog.deals[p] as Deal);
    const answer =
      stats.total === 0
        ? noDealsText(this.catalog, query.search, query.scope ?? 'all')
        : listText(
            stats.total,
            'deal',
            deals.map((d) => dealLine(d, url(paths.deal(d)))),
          );
    return [text(answer), data({ skill: 'search_deals', total: stats.total, count: deals.length, deals })];
  }

  private searchStartups(filters: Record<string, unknown>, url: (path: string) => string): Part[] {
    const parsed = parseFilters(STARTUP_FILTERS, filters);
    if (!parsed.ok) return refused(parsed.problem);
    const { limit, ...query } = parsed.value;
    const { positions, total } = listStartups(this.catalog, query);
    const startups = positions.slice(0, Math.min(limit ?? A2A_DEFAULT_LIMIT, A2A_MAX_LIMIT)).map((p) => this.catalog.startups[p] as Startup);
    const answer =
      total === 0
        ? 'No startup listing matches these filters.'
        : listText(
            total,
            'listing',
            startups.map((s) => startupLine(s, url(paths.startup(s)))),
          );
    return [text(answer), data({ skill: 'search_startups', total, count: startups.length, startups })];
  }
}

// --- internal ---

type Asked = { skill: A2aSkill; filters: Record<string, unknown> } | { problem: string };

/** The skill and filters a message asks for, from its text and its first data part. */
function readMessage(message: Message): Asked {
  const said = message.parts
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join(' ')
    .trim();
  const content = message.parts.find((part) => part.content?.$case === 'data')?.content;
  if (content === undefined) {
    if (said === '') return { problem: 'Send a text part (what to search for) or a data part of filters, such as { "search": "cloud credits", "limit": 5 }.' };
    if (STARTUPS_PREFIX.test(said)) return { skill: 'search_startups', filters: { search: said.replace(STARTUPS_PREFIX, '') } };
    return { skill: 'search_deals', filters: { search: said } };
  }
  const value: unknown = content.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'A data part must be a JSON object of filters, such as { "search": "cloud credits", "limit": 5 }.' };
  const { skill = 'search_deals', ...filters } = value as Record<string, unknown>;
  if (!A2A_SKILLS.includes(skill as A2aSkill)) return { problem: `skill: expected one of ${A2A_SKILLS.join(', ')}.` };
  return { skill: skill as A2aSkill, filters: said === '' ? filters : { ...filters, search: said } };
}

function refused(problem: ParamProblem): Part[] {
  return [text(`${problem.name}: ${problem.message}.`), data({ error: `${problem.name}: ${problem.message}`, parameter: problem.name, allowed: problem.allowed })];
}

function text(value: string): Part {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/markdown' };
}

function data(value: Record<string, unknown>): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}
