/**
 * `/changes.atom`: the latest changes to deals and startups as an Atom 1.0 feed (RFC 4287),
 * for feed readers; the same changes as GET /api/v1/changes answers. Pure: the changes in, the
 * XML out. Every text goes through `xmlText` (escaped, and stripped of the characters XML 1.0
 * cannot hold at all, such as a control character in a hand commit's subject).
 */
import type { Change } from '../schemas/answers.ts';
import type { Site } from '../schemas/site.ts';
import { escapeHtml } from '../escape-html.ts';
import { absolute, paths } from './site-urls.ts';

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

/**
 * The feed of `changes` (newest first, each with its page `url` unless removed).
 * @param updated when the feed last moved (the newest change, else the commit served), ISO 8601
 * @example changesAtom(site, changes, '2026-11-20T09:30:00Z').startsWith('<?xml')
 */
export function changesAtom(site: Site, changes: readonly Change[], updated: string): string {
  const url = (path: string) => absolute(site.baseUrl, path);
  const host = new URL(site.baseUrl).hostname;
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    // The feed's own address is its id (RFC 4287 §4.2.6: permanent and unique); entries get tag URIs.
    `  <id>${xmlText(url(paths.changesAtom))}</id>`,
    `  <title>${xmlText(`${site.name}: changes`)}</title>`,
    `  <subtitle>${xmlText('Deals and startups added, updated, expired and removed, read from the history of the content.')}</subtitle>`,
    `  <updated>${xmlText(changes[0]?.date ?? updated)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(url(paths.changesAtom))}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(url(paths.home))}"/>`,
    `  <link rel="related" type="application/json" href="${xmlText(url(paths.changes))}"/>`,
    `  <author><name>${xmlText(site.name)}</name><uri>${xmlText(url(paths.home))}</uri></author>`,
    ...changes.flatMap((change) => entry(change, host, url)),
    '</feed>',
    '',
  ];
  return lines.join('\n');
}

/**
 * Text for XML element content or a quoted attribute: escaped, without the characters XML 1.0
 * does not allow (C0 controls but tab and line breaks, lone surrogates, U+FFFE and U+FFFF).
 * @example xmlText('A & B\u0007') // 'A &amp; B'
 */
export function xmlText(text: string): string {
  return escapeHtml(text.replace(NOT_XML, ''));
}

// --- internal ---

// eslint-disable-next-line no-control-regex -- naming the control characters XML forbids is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const VERBS: Record<Change['change'], string> = { added: 'Added', updated: 'Updated', expired: 'Expired', removed: 'Removed' };

function entry(change: Change, host: string, url: (path: string) => string): string[] {
  const noun = change.kind === 'deal' ? 'deal' : 'startup';
  const renamed = change.previousSlug ? ` (renamed from ${change.previousSlug})` : '';
  const fields = change.fields?.length ? ` Fields changed: ${change.fields.join(', ')}.` : '';
  const summary = `${VERBS[change.change]} ${noun} “${change.title}”${renamed}.${fields} Commit ${change.commit.slice(0, 12)}: ${change.message}`;
  // A removed record has no page: its kind's list stands in (an entry needs a link or content).
  const link = change.url ?? url(change.kind === 'deal' ? paths.deals : paths.startups);
  // tag: URI (RFC 4151) of this record in this commit: the same entry in every copy of the feed.
  const id = `tag:${host},${change.date.slice(0, 10)}:changes/${change.commit}/${change.kind}/${change.slug}`;
  return [
    '  <entry>',
    `    <id>${xmlText(id)}</id>`,
    `    <title>${xmlText(`${VERBS[change.change]}: ${change.title}`)}</title>`,
    `    <updated>${xmlText(change.date)}</updated>`,
    `    <link rel="alternate" type="text/html" href="${xmlText(link)}"/>`,
    `    <category term="${noun}"/>`,
    `    <summary>${xmlText(summary)}</summary>`,
    '  </entry>',
  ];
}
