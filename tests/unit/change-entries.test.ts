/**
 * The changes one commit made, as the change feed publishes them (src/catalog/change-entries.ts),
 * from record texts before and after: added, updated with the fields that changed, expired,
 * removed; a rename paired by id; drafts never public; an edit of no field, and files that are
 * no records, no change; a file that cannot be read skipped with its reason. And the Atom form
 * of changes (src/agents/changes-atom.ts), read back with a strict XML parser.
 */
import { describe, expect, test } from 'vitest';
import { changesAtom, xmlText } from '../../src/agents/changes-atom.ts';
import { commitChanges, readRecordText, recordKind, utcInstant, type ChangedFile } from '../../src/catalog/change-entries.ts';
import type { Change } from '../../src/schemas/answers.ts';
import type { Site } from '../../src/schemas/site.ts';
import { childrenNamed, parseXml } from '../helpers/xml.ts';

const COMMIT = { commit: 'c'.repeat(40), date: '2026-11-20T10:30:00+01:00', message: 'Edit by hand', byStore: false };

/** A deal file's text with these front-matter lines. */
const deal = (lines: string, body = 'About it.') => `---\nid: d-1\ntitle: Acme credits\nprovider: Acme\ncategory: cloud-credits\nstatus: active\n${lines}---\n${body}\n`;
const file = (path: string, before: string | undefined, after: string | undefined): ChangedFile => ({
  path,
  before: before === undefined ? undefined : readRecordText(path, before),
  after: after === undefined ? undefined : readRecordText(path, after),
});
const changesOf = (...files: ChangedFile[]) => commitChanges(COMMIT, files).changes;

describe('one record', () => {
  test('added, with its title; the commit, its date in UTC, its subject and who committed it', () => {
    expect(changesOf(file('deals/acme.md', undefined, deal('')))).toEqual([
      { commit: COMMIT.commit, date: '2026-11-20T09:30:00Z', kind: 'deal', slug: 'acme', change: 'added', title: 'Acme credits', message: 'Edit by hand', via: 'git' },
    ]);
    expect(commitChanges({ ...COMMIT, byStore: true }, [file('deals/acme.md', undefined, deal(''))]).changes[0]?.via).toBe('admin');
  });

  test('updated: the fields that changed in schema order, the body as `description`; removed, with its last title', () => {
    const [updated] = changesOf(file('deals/acme.md', deal('value: $1\n'), deal('value: $2\ntags: [x]\n', 'New body.')));
    expect(updated).toMatchObject({ change: 'updated', slug: 'acme', fields: ['value', 'tags', 'description'] });
    expect(changesOf(file('deals/acme.md', deal(''), undefined))).toMatchObject([{ change: 'removed', slug: 'acme', title: 'Acme credits' }]);
  });

  test('expired: an update that sets a deal\u2019s status to expired (and only from another status)', () => {
    const expired = deal('').replace('status: active', 'status: expired');
    expect(changesOf(file('deals/acme.md', deal(''), expired))).toMatchObject([{ change: 'expired', fields: ['status'] }]);
    expect(changesOf(file('deals/acme.md', expired, expired.replace('About it.', 'Over.')))).toMatchObject([{ change: 'updated', fields: ['description'] }]);
  });

  test('an edit that changes no field (a comment, quoting, key order) is no change', () => {
    const before = deal('value: $1\n');
    expect(changesOf(file('deals/acme.md', before, before.replace('value: $1', "value: '$1' # same")))).toEqual([]);
  });

  test('startups: the name is the title; a title left out is the slug', () => {
    const startup = '---\nid: s-1\nname: Shopfront\ncategory: saas\n---\n';
    expect(changesOf(file('startups/shopfront.md', undefined, startup))).toMatchObject([{ kind: 'startup', title: 'Shopfront' }]);
    expect(changesOf(file('deals/nameless.md', undefined, '---\nid: d-2\n---\n'))).toMatchObject([{ title: 'nameless' }]);
  });
});

describe('renames and drafts', () => {
  test('a file deleted and one added with the same id: one rename, `slug` among the fields, and `previousSlug`', () => {
    const changes = changesOf(file('deals/acme.md', deal(''), undefined), file('deals/acme-cloud.md', undefined, deal('value: $5\n')));
    expect(changes).toEqual([expect.objectContaining({ change: 'updated', slug: 'acme-cloud', previousSlug: 'acme', fields: ['slug', 'value'] })]);
    // Different ids: one removed, one added.
    expect(
      changesOf(file('deals/acme.md', deal(''), undefined), file('deals/other.md', undefined, deal('').replace('id: d-1', 'id: d-9')))
        .map((c) => c.change)
        .sort(),
    ).toEqual(['added', 'removed']);
  });

  test('drafts are not public: adding or editing one is nothing, publishing one adds it, drafting one removes it', () => {
    const draft = deal('draft: true\n');
    expect(changesOf(file('deals/acme.md', undefined, draft))).toEqual([]);
    expect(changesOf(file('deals/acme.md', draft, draft.replace('About it.', 'More.')))).toEqual([]);
    expect(changesOf(file('deals/acme.md', draft, deal('')))).toMatchObject([{ change: 'added' }]);
    expect(changesOf(file('deals/acme.md', deal(''), draft))).toMatchObject([{ change: 'removed' }]);
  });
});

describe('what is not a record, or cannot be read', () => {
  test('only deals/*.md and startups/*.md count (no hidden files, settings or old submissions)', () => {
    for (const path of ['site.yaml', 'categories.yaml', 'submissions/sub-1.json', 'deals/.acme.md.swp', 'deals/notes.txt', 'deals/sub/x.md']) expect(recordKind(path), path).toBeUndefined();
    expect(recordKind('deals/acme.md')).toBe('deal');
    expect(recordKind('startups/shop.md')).toBe('startup');
    expect(changesOf({ path: 'site.yaml', after: { record: {} } })).toEqual([]);
  });

  test('a version that cannot be read: no change, the file skipped with the reason', () => {
    const broken = '---\ntitle: [unclosed\n---\n';
    const result = commitChanges(COMMIT, [file('deals/acme.md', deal(''), broken), file('deals/beta.md', undefined, deal('').replace('id: d-1', 'id: d-2'))]);
    expect(result.changes.map((c) => c.slug)).toEqual(['beta']);
    expect(result.skipped).toEqual([{ path: 'deals/acme.md', reason: expect.stringContaining('YAML') as unknown }]);
  });

  test('deals before startups, each by slug', () => {
    const startup = (id: string) => `---\nid: ${id}\nname: S\ncategory: saas\n---\n`;
    const changes = changesOf(
      file('startups/b.md', undefined, startup('s-b')),
      file('deals/z.md', undefined, deal('').replace('d-1', 'd-z')),
      file('startups/a.md', undefined, startup('s-a')),
      file('deals/m.md', undefined, deal('').replace('d-1', 'd-m')),
    );
    expect(changes.map((c) => `${c.kind}/${c.slug}`)).toEqual(['deal/m', 'deal/z', 'startup/a', 'startup/b']);
  });

  test('utcInstant: any offset to UTC, to the second', () => {
    expect(utcInstant('2026-11-20T00:30:00-02:00')).toBe('2026-11-20T02:30:00Z');
  });
});

describe('the Atom feed', () => {
  const site = { name: 'Deals & more', baseUrl: 'https://deals.example/', description: 'x', contact: {} } as unknown as Site;
  const change = (over: Partial<Change>): Change => ({
    commit: 'a'.repeat(40),
    date: '2026-11-20T09:30:00Z',
    kind: 'deal',
    slug: 'acme',
    change: 'updated',
    fields: ['value'],
    title: 'Acme',
    url: 'https://deals.example/deals/acme/',
    message: 'Edit',
    via: 'git',
    ...over,
  });

  test('RFC 4287: feed id, title, updated, self and alternate links, author; entries with a tag: id, title, updated, link and summary', () => {
    const feed = parseXml(
      changesAtom(site, [change({}), change({ change: 'removed', kind: 'startup', slug: 'gone', url: undefined, fields: undefined, title: 'Gone <Ltd>' })], '2026-01-01T00:00:00Z'),
    );
    const text = (name: string) => childrenNamed(feed, name)[0]?.text;
    expect([feed.name, feed.attributes.xmlns, text('id'), text('title'), text('updated')]).toEqual([
      'feed',
      'http://www.w3.org/2005/Atom',
      'https://deals.example/changes.atom',
      'Deals & more: changes',
      '2026-11-20T09:30:00Z',
    ]);
    expect(childrenNamed(feed, 'link').map((l) => `${l.attributes.rel} ${l.attributes.href}`)).toEqual([
      'self https://deals.example/changes.atom',
      'alternate https://deals.example/',
      'related https://deals.example/api/v1/changes',
    ]);
    expect(childrenNamed(childrenNamed(feed, 'author')[0] ?? feed, 'name')[0]?.text).toBe('Deals & more');
    const [updated, removed] = childrenNamed(feed, 'entry').map((entry) => Object.fromEntries(entry.children.map((c) => [c.name, c.attributes.href ?? c.attributes.term ?? c.text])));
    expect(updated).toEqual({
      id: `tag:deals.example,2026-11-20:changes/${'a'.repeat(40)}/deal/acme`,
      title: 'Updated: Acme',
      updated: '2026-11-20T09:30:00Z',
      link: 'https://deals.example/deals/acme/',
      category: 'deal',
      summary: `Updated deal “Acme”. Fields changed: value. Commit ${'a'.repeat(12)}: Edit`,
    });
    expect(removed).toMatchObject({ title: 'Removed: Gone <Ltd>', link: 'https://deals.example/startups/' });
  });

  test('an empty feed is still valid, dated when it last moved; text XML cannot hold is dropped', () => {
    const feed = parseXml(changesAtom(site, [], '2026-01-01T00:00:00Z'));
    expect(childrenNamed(feed, 'updated')[0]?.text).toBe('2026-01-01T00:00:00Z');
    expect(childrenNamed(feed, 'entry')).toEqual([]);
    expect(xmlText('a\u0000b\u0007c & <d> \uD800e \u{1F600}')).toBe('abc &amp; &lt;d&gt; e \u{1F600}');
    expect(() => parseXml(changesAtom(site, [change({ message: 'bell \u0007 \uDC00 here', title: '\u001b[31mred' })], 'x'))).not.toThrow();
  });
});
