/**
 * The links to check, from validated records: each distinct URL once, with every record and
 * field that holds it, so a report line tells an editor everything a dead link touches.
 */
import type { CatalogData } from '../../src/catalog/catalog.ts';
import { LINK_FIELDS, type LinkUse } from './report.ts';

export interface LinkTarget {
  url: string;
  uses: LinkUse[];
}

/** Any record with a slug: a field is read when the record has it (`sourceUrl` is optional everywhere). */
type AnyRecord = { slug: string } & object;

/** The records whose links are checked: the published ones and the drafts (about to be published). */
export function checkedRecords(data: Pick<CatalogData, 'deals' | 'startups' | 'drafts'>): { deals: AnyRecord[]; startups: AnyRecord[] } {
  return { deals: [...data.deals, ...(data.drafts?.deals ?? [])], startups: [...data.startups, ...(data.drafts?.startups ?? [])] };
}

/**
 * @param only when given, the slugs whose links to check (deals and startups alike)
 * @returns the links in URL order, each record's uses in kind, slug and field order
 * @example collectLinks(checkedRecords(catalog))
 */
export function collectLinks(records: { deals: readonly AnyRecord[]; startups: readonly AnyRecord[] }, only?: ReadonlySet<string>): LinkTarget[] {
  const byUrl = new Map<string, LinkUse[]>();
  const add = (kind: LinkUse['kind'], record: AnyRecord) => {
    if (only && !only.has(record.slug)) return;
    for (const field of LINK_FIELDS) {
      const url = field in record ? (record as Record<string, unknown>)[field] : undefined;
      if (typeof url !== 'string' || url === '') continue;
      const uses = byUrl.get(url) ?? [];
      uses.push({ kind, slug: record.slug, field });
      byUrl.set(url, uses);
    }
  };
  for (const deal of records.deals) add('deal', deal);
  for (const startup of records.startups) add('startup', startup);
  return [...byUrl]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([url, uses]) => ({ url, uses: uses.sort((a, b) => `${a.kind} ${a.slug} ${a.field}`.localeCompare(`${b.kind} ${b.slug} ${b.field}`)) }));
}
