/**
 * `/llms.txt` (llmstxt.org: H1, summary blockquote, details, H2 link lists) and
 * `/llms-full.txt` (the whole public catalog as Markdown, deals grouped by category). Pure
 * functions of the catalog: submissions are never part of it. Content text goes through the
 * Markdown content policy (markdown-policy.ts).
 */
import type { CatalogData } from '../catalog/catalog.ts';
import { equityLabel, regionsLabel, stagesLabel, usd } from '../catalog/labels.ts';
import type { Deal } from '../schemas/deal.ts';
import { markdownContent, markdownText, markdownUrl } from './markdown-policy.ts';
import { memberAreaNote } from './member-area.ts';
import { absolute, paths } from './site-urls.ts';

/**
 * @example llmsTxt(catalog).startsWith('# ')
 */
export function llmsTxt(data: CatalogData): string {
  const { site } = data;
  const url = (path: string) => absolute(site.baseUrl, path);
  const live = data.deals.filter((d) => d.status !== 'expired');
  const lines = [
    `# ${markdownText(site.name)}`,
    '',
    `> ${markdownText(site.description)}`,
    '',
    `${live.length} live deals and programs in ${data.categories.deals.length} categories, and ${data.startups.length} startups listed for sale.`,
    'Public data needs no key: use the JSON API, the MCP server or the A2A agent. Every page is also available as Markdown: send `Accept: text/markdown`.',
    memberAreaNote(site.baseUrl),
    '',
    '## API',
    '',
    `- [OpenAPI 3.1 description](${url(paths.openapi)}): every endpoint, parameter, status and body of ${url(paths.api)}`,
    `- [Deals](${url(`${paths.api}/deals?limit=50`)}): list and search deals (\`search\`, \`category\`, \`status\`, \`scope=programs\`, \`sort=value|expiry|newest\`, program filters \`equity=none\`, \`stage\`, \`region\`, \`limit\`)`,
    `- [Startups for sale](${url(`${paths.api}/startups`)}): filter by \`category\`, \`country\`, \`minRevenue\`, \`maxRevenue\`, \`source\`, \`forSale\``,
    `- [Changes](${url(paths.changes)}): what changed, newest first, from the content's history: deals and startups added, updated (which fields), expired, removed; \`since\` a date or the \`head\` commit of an earlier answer, \`kind\`, \`limit\`, \`cursor\``,
    `- [Change feed (Atom)](${url(paths.changesAtom)}): the latest changes for feed readers`,
    `- [MCP server](${url(paths.mcp)}): Streamable HTTP; tools \`search_deals\`, \`get_deal\`, \`search_startups\`, \`recent_changes\`, \`get_site_info\`, \`list_categories\``,
    `- [A2A agent](${url(paths.a2a)}): A2A 1.0, JSON-RPC (send \`A2A-Version: 1.0\`); \`SendMessage\` with a text or a data part of the API's filters answers the matching deals (or startups) as data and a short text`,
    `- [API catalog](${url(paths.apiCatalog)}): RFC 9727 linkset`,
    `- [Agent card](${url(paths.agentCard)}): the A2A interface, skills and how to reach them`,
    '',
    '## Pages',
    '',
    `- [Deals](${url(paths.deals)}): every live deal, with search and filters`,
    `- [Programs](${url(paths.programs)}): accelerators, incubators and grants`,
    `- [Startups for sale](${url(paths.startups)})`,
    `- [Submit a deal](${url(paths.submit)}): for editorial review`,
    `- [About this site](${url(paths.about)}): who runs it, how entries are checked, sponsorship policy, contact`,
    `- [API, MCP and agent access](${url(paths.developers)})`,
    '',
    '## Categories',
    '',
    ...data.categories.deals.map((c) => `- [${markdownText(c.name)}](${url(paths.category(c.slug))}): ${markdownText(c.description ?? c.scope)}`),
    '',
    '## Optional',
    '',
    `- [Full catalog as Markdown](${url(paths.llmsFull)}): every live deal and program, grouped by category`,
    `- [Sitemap](${url(paths.sitemap)})`,
    '',
  ];
  return lines.join('\n');
}

/** The whole public catalog as one Markdown document. */
export function llmsFullTxt(data: CatalogData): string {
  const { site } = data;
  const url = (path: string) => absolute(site.baseUrl, path);
  const out = [`# ${markdownText(site.name)}: full catalog`, '', `> ${markdownText(site.description)}`, '', `Source: ${url('/')}. JSON API: ${url(paths.api)}.`, ''];
  for (const category of data.categories.deals) {
    const deals = data.deals.filter((d) => d.category === category.slug && d.status !== 'expired');
    if (deals.length === 0) continue;
    out.push(`## ${markdownText(category.name)}`, '');
    if (category.description) out.push(markdownText(category.description), '');
    for (const deal of deals) out.push(...dealMarkdown(deal, url(paths.deal(deal)), 3), '');
  }
  out.push('## Startups for sale', '');
  for (const s of data.startups.filter((x) => x.forSale)) {
    const facts = [s.category, s.country, s.revenueDisplay ?? (s.revenue !== undefined ? `revenue $${s.revenue}` : undefined), s.askingPriceDisplay && `asking ${s.askingPriceDisplay}`]
      .filter(Boolean)
      .join(' · ');
    const description = s.description ? [markdownContent(s.description, { headingLevel: 4, siteUrl: site.baseUrl }), ''] : [];
    const summary = s.summary ? [markdownText(s.summary), ''] : [];
    out.push(`### [${markdownText(s.name)}](${url(paths.startup(s))})`, '', ...summary, markdownText(facts), '', ...description);
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/**
 * A deal's facts as label/value pairs, for its page and its Markdown alike (empty values left
 * out). The facts founders compare between programs are in words; the estimated value in
 * dollars only when the value text does not already say that amount.
 */
export function dealFacts(deal: Deal): (readonly [string, string])[] {
  const dollars = deal.valueUsd === undefined ? undefined : usd(deal.valueUsd);
  const facts: [string, string | undefined][] = [
    ['Provider', deal.provider],
    ['Value', deal.value],
    ['Estimated value', dollars && !deal.value?.includes(dollars) ? dollars : undefined],
    ['Savings', deal.savings],
    ['Equity', deal.equityPercent === undefined ? undefined : equityLabel(deal.equityPercent)],
    ['Stage', deal.stages?.length ? stagesLabel(deal.stages) : undefined],
    ['Regions', deal.regions?.length ? regionsLabel(deal.regions) : undefined],
    ['Next deadline', deal.nextDeadline],
    ['Status', deal.status],
    ['Expires', deal.expiryDate],
    ['Difficulty', deal.difficulty],
    ['Time to apply', deal.timeToApply],
    ['Subcategory', deal.subcategory],
    ['Last updated', deal.lastUpdated],
  ];
  return facts.filter((fact): fact is [string, string] => Boolean(fact[1]));
}

/** When and where a record's facts were last checked, as Markdown list items. */
export function provenanceLines(record: { lastVerified?: string | undefined; sourceUrl?: string | undefined }): string[] {
  return [...(record.lastVerified ? [`- Last verified: ${record.lastVerified}`] : []), ...(record.sourceUrl ? [`- Source: ${markdownUrl(record.sourceUrl)}`] : [])];
}

/**
 * One deal as compact Markdown (used by llms-full.txt and the Markdown twin of its page).
 * @param level heading level of the deal's title; the description's headings go below it
 */
export function dealMarkdown(deal: Deal, pageUrl: string, level = 1): string[] {
  const labels = [deal.featured && 'Sponsored', deal.recommended && "Editor's pick", deal.verified && 'Verified'].filter(Boolean).join(', ');
  const items = (list: readonly string[]) => list.map((item) => `- ${markdownText(item)}`);
  return [
    `${'#'.repeat(level)} [${markdownText(deal.title)}](${pageUrl})`,
    '',
    ...(deal.shortDescription ? [markdownText(deal.shortDescription), ''] : []),
    ...dealFacts(deal).map(([k, v]) => `- ${k}: ${markdownText(v)}`),
    `- Apply: ${markdownUrl(deal.applicationUrl)}`,
    ...provenanceLines(deal),
    ...(labels ? [`- Labels: ${labels}`] : []),
    ...(deal.eligibility?.length ? ['', 'Eligibility:', ...items(deal.eligibility)] : []),
    ...(deal.requirements?.length ? ['', 'Requirements:', ...items(deal.requirements)] : []),
    ...(deal.description ? ['', markdownContent(deal.description, { headingLevel: level + 1, siteUrl: pageUrl })] : []),
  ];
}
