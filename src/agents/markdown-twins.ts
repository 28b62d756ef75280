/**
 * The Markdown twin of every public page (`Accept: text/markdown`): the page's content, not
 * its navigation. Written at build time next to each page as `index.md`, from the same catalog
 * the pages are built from. Content text goes through the Markdown content policy
 * (markdown-policy.ts), as on the pages.
 */
import type { CatalogData } from '../catalog/catalog.ts';
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';
import { dealMarkdown, provenanceLines } from './llms.ts';
import { markdownContent, markdownText, markdownUrl } from './markdown-policy.ts';
import { publicPages } from './sitemap.ts';
import { privacyNoticeMarkdown } from '../members/privacy-notice.ts';
import { absolute, paths } from './site-urls.ts';

/** Every page that has a twin, by path. */
export function twinPaths(data: CatalogData): string[] {
  return publicPages(data).map((p) => p.path);
}

/**
 * The twin of the page at `path`, or undefined when there is no such public page.
 * @example twinFor('/deals/aws-activate/', catalog)
 */
export function twinFor(path: string, data: CatalogData): string | undefined {
  // Deal and startup pages are most of the site: find them by path without scanning.
  let byPath = recordsByPath.get(data);
  if (!byPath) {
    byPath = new Map<string, Deal | Startup>([...data.deals.map((d) => [paths.deal(d), d] as const), ...data.startups.map((s) => [paths.startup(s), s] as const)]);
    recordsByPath.set(data, byPath);
  }
  const record = byPath.get(path);
  if (record && 'title' in record) return `${dealMarkdown(record, absolute(data.site.baseUrl, path), 1).join('\n').trimEnd()}\n`;
  if (record) return startupTwin(record, data.site.baseUrl);
  return listingTwin(path, data);
}

const recordsByPath = new WeakMap<CatalogData, Map<string, Deal | Startup>>();

function startupTwin(startup: Startup, siteUrl: string): string {
  const description = startup.description ? markdownContent(startup.description, { headingLevel: 2, siteUrl }) : '';
  return `${[
    `# ${markdownText(startup.name)}`,
    '',
    ...(startup.summary ? [markdownText(startup.summary), ''] : []),
    startupFacts(startup),
    '',
    ...(startup.website ? [`Website: ${markdownUrl(startup.website)}`, ''] : []),
    ...(startup.listingUrl ? [`Listing: ${markdownUrl(startup.listingUrl)}`, ''] : []),
    ...(startup.lastVerified || startup.sourceUrl ? [...provenanceLines(startup), ''] : []),
    description,
  ]
    .join('\n')
    .trimEnd()}\n`;
}

function listingTwin(path: string, data: CatalogData): string | undefined {
  const url = (p: string) => absolute(data.site.baseUrl, p);
  const live = data.deals.filter((d) => d.status !== 'expired');
  const scopeOf = new Map(data.categories.deals.map((c) => [c.slug, c.scope]));
  const list = (deals: readonly Deal[]) =>
    deals.map((d) => `- [${markdownText(d.title)}](${url(paths.deal(d))}) (${markdownText(d.provider)})${d.value ? `: ${markdownText(d.value)}` : ''}${labels(d)}`);
  const page = (title: string, intro: string[], body: string[]) => `${[`# ${markdownText(title)}`, '', ...intro, ...(intro.length ? [''] : []), ...body].join('\n').trimEnd()}\n`;
  const siteDescription = markdownText(data.site.description);

  if (path === paths.home) {
    const picks = live.filter((d) => d.featured || d.recommended).slice(0, 12);
    return page(
      data.site.name,
      [`> ${siteDescription}`],
      [
        `${live.filter((d) => scopeOf.get(d.category) === 'deals').length} live deals, ${live.filter((d) => scopeOf.get(d.category) === 'programs').length} programs, ${data.startups.filter((s) => s.forSale).length} startups for sale.`,
        '',
        '## Featured and recommended',
        '',
        ...list(picks),
        '',
        '## Categories',
        '',
        ...data.categories.deals.map((c) => `- [${markdownText(c.name)}](${url(paths.category(c.slug))}) (${c.scope}): ${live.filter((d) => d.category === c.slug).length} live`),
        '',
        `JSON API: ${url(paths.api)} · OpenAPI: ${url(paths.openapi)} · MCP: ${url(paths.mcp)}`,
      ],
    );
  }
  if (path === paths.deals || path === paths.programs) {
    const scope = path === paths.deals ? 'deals' : 'programs';
    const deals = live.filter((d) => scopeOf.get(d.category) === scope);
    return page(scope === 'deals' ? 'Deals' : 'Programs', [`${deals.length} live ${scope === 'deals' ? 'deals' : 'accelerators, incubators and grants'}.`], list(deals));
  }
  if (path === paths.startups) {
    // As on the page: those for sale, then (apart) those sold or off the market.
    const line = (s: Startup) => `- [${markdownText(s.name)}](${url(paths.startup(s))}): ${s.summary ? `${markdownText(s.summary)} ` : ''}${startupFacts(s)}`;
    const gone = data.startups.filter((s) => !s.forSale);
    return page(
      'Startups for sale',
      [`${data.startups.length - gone.length} for sale.`],
      [...data.startups.filter((s) => s.forSale).map(line), ...(gone.length ? ['', '## Sold or off the market', '', ...gone.map(line)] : [])],
    );
  }
  if (path === paths.submit) {
    return page(
      'Submit a deal',
      ['Anyone can submit a deal for editorial review; accepted submissions are published after review.'],
      [
        `Send a JSON POST to ${url(`${paths.api}/submit-deal`)} with company_name (2-120 characters), website_url, benefit_description (10-2000), category (cloud, saas, marketing, hiring, legal, other), deal_value (up to 100), redemption_method (link or code), redemption_link (up to 300; a URL for link), and optionally is_exclusive, submitter_email, logo_url and site_category: the category of this site it belongs in, one of ${data.categories.deals.map((c) => c.slug).join(', ')} (${url(`${paths.api}/categories`)} names them). At most 5 accepted submissions per address per hour.`,
        '',
        `A refused submission is a 400 whose \`error\` names the first problem; POST to ${url(`${paths.api}/submit-deal?errors=all`)} to get every problem, one per field, in \`fields\`. Editors review submissions in the order they arrive.`,
      ],
    );
  }
  if (path === paths.about) {
    const { about, contact } = data.site;
    const section = (title: string, markdown: string | undefined, fallback: string) => [
      `## ${title}`,
      '',
      markdown ? markdownContent(markdown, { headingLevel: 3, siteUrl: data.site.baseUrl }).trimEnd() : fallback,
      '',
    ];
    return page(
      `About ${data.site.name}`,
      [siteDescription],
      [
        ...section('Who runs it', about.runBy, `${markdownText(data.site.name)} is run by its editors, who add and check every entry by hand.`),
        ...section('How entries are checked', about.verification, "An editor checks each entry against the provider's own page before it is published."),
        'Every deal and program page shows the date its entry was last updated and links to the official page, whose current terms win.',
        '',
        ...section('Sponsorship and advertising', about.sponsorship, 'Providers can pay to be featured; a paid placement is always labelled "Sponsored".'),
        '"Sponsored" marks a paid placement, "Editor\'s pick" an editorial recommendation.',
        '',
        '## Contact',
        '',
        ...(contact.email ? [`- E-mail: <${markdownText(contact.email)}>`] : []),
        ...(contact.url ? [`- Elsewhere: ${markdownUrl(contact.url)}`] : []),
        `- Submit a deal: ${url(paths.submit)}`,
        `- API and agent access: ${url(paths.developers)}`,
      ],
    );
  }
  if (path === paths.privacy) return privacyNoticeMarkdown(data.site, (markdown) => markdownContent(markdown, { headingLevel: 3, siteUrl: data.site.baseUrl }));
  if (path === paths.developers) {
    return page(
      'About the API',
      [siteDescription],
      [
        `- JSON API: ${url(paths.api)} (no key needed for deals, startups and submissions); unversioned aliases under /api.`,
        `- OpenAPI 3.1: ${url(paths.openapi)}`,
        `- MCP (Streamable HTTP): ${url(paths.mcp)}; tools search_deals, get_site_info, list_categories`,
        `- llms.txt: ${url(paths.llms)}; full catalog: ${url(paths.llmsFull)}`,
        `- API catalog: ${url(paths.apiCatalog)}; agent card: ${url(paths.agentCard)}`,
        '- Markdown: send `Accept: text/markdown` to any page.',
        '- Versioning: v1 is current; breaking changes need /api/v2; retirements are announced 180 days ahead with Deprecation, Sunset and Link headers.',
        '- Authentication: admin writes need a signed-in browser session; no credentials are issued to agents.',
      ],
    );
  }
  const category = data.categories.deals.find((c) => path === paths.category(c.slug));
  if (category) {
    const deals = live.filter((d) => d.category === category.slug);
    return page(category.name, [markdownText(category.description ?? ''), `${deals.length} live ${category.scope === 'programs' ? 'programs' : 'deals'}.`].filter(Boolean), list(deals));
  }
  return undefined;
}

// --- internal ---

function labels(deal: Deal): string {
  const list = [deal.featured && 'Sponsored', deal.recommended && "Editor's pick", deal.status !== 'active' && deal.status].filter(Boolean);
  return list.length ? ` [${list.join(', ')}]` : '';
}

/** A startup's facts on one line, as Markdown text. */
function startupFacts(s: Startup): string {
  const facts = [
    s.category,
    s.country,
    s.revenueDisplay ?? (s.revenue !== undefined ? `revenue $${s.revenue.toLocaleString('en-US')}` : undefined),
    s.askingPriceDisplay ? `asking ${s.askingPriceDisplay}` : s.askingPrice !== undefined ? `asking $${s.askingPrice.toLocaleString('en-US')}` : undefined,
    s.source && `via ${s.source}`,
    s.forSale ? 'for sale' : 'not for sale',
  ]
    .filter(Boolean)
    .join(' · ');
  return markdownText(facts);
}
