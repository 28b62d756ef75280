/**
 * The text answers of the agent surfaces (the MCP tools, the A2A agent): one line per record
 * or change, a count, and what an empty deal search says. Clients show this text as Markdown, so content
 * fields go through the Markdown content policy.
 */
import type { Catalog } from '../catalog/catalog.ts';
import type { Change } from '../schemas/answers.ts';
import { nearestCategories, noResultsText } from '../catalog/empty-result.ts';
import type { Scope } from '../schemas/category.ts';
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';
import { markdownText } from './markdown-policy.ts';

/**
 * @example dealLine(deal, 'https://example.com/deals/aws-activate/') // '- AWS Activate (Amazon; active; $100,000): https://…'
 */
export function dealLine(deal: Pick<Deal, 'title' | 'provider' | 'status' | 'value'>, pageUrl: string): string {
  return `- ${markdownText(deal.title)} (${markdownText(deal.provider)}; ${deal.status}${deal.value ? `; ${markdownText(deal.value)}` : ''}): ${pageUrl}`;
}

/** One listing: name, category, country, revenue, and whether it is still for sale. */
export function startupLine(startup: Pick<Startup, 'name' | 'category' | 'country' | 'revenueDisplay' | 'forSale'>, pageUrl: string): string {
  const facts = [startup.category, startup.country, startup.revenueDisplay && `revenue ${markdownText(startup.revenueDisplay)}`, !startup.forSale && 'no longer for sale'].filter(Boolean).join('; ');
  return `- ${markdownText(startup.name)} (${facts}): ${pageUrl}`;
}

/**
 * One change of the feed: day, what happened, to what, which fields, and its page.
 * @example changeLine(change) // '- 2026-11-20 updated deal AWS Activate (value, expiryDate): https://…'
 */
export function changeLine(change: Pick<Change, 'date' | 'change' | 'kind' | 'title' | 'previousSlug' | 'fields' | 'url' | 'slug'>): string {
  const details = [change.previousSlug && `renamed from ${change.previousSlug}`, change.fields?.length && change.fields.join(', ')].filter(Boolean).join('; ');
  return `- ${change.date.slice(0, 10)} ${change.change} ${change.kind} ${markdownText(change.title)}${details ? ` (${details})` : ''}: ${change.url ?? `${change.slug}, no longer listed`}`;
}

/** `12 matching deal(s), showing 10.` and the lines below it. */
export function listText(total: number, noun: string, lines: readonly string[]): string {
  return `${total} matching ${noun}(s)${total > lines.length ? `, showing ${lines.length}` : ''}.\n${lines.join('\n')}`;
}

/** What a deal search that found nothing says: what was searched, and categories to try instead. */
export function noDealsText(catalog: Catalog, query: string | undefined, scope: Scope | 'all'): string {
  return noResultsText(query === undefined ? undefined : markdownText(query), scope, nearestCategories(query ?? '', catalog.categories.deals, scope), (c) => `\`${c.slug}\` (${markdownText(c.name)})`);
}
