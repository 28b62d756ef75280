/**
 * The link-health report (functions/links/report.ts, report-markdown.ts) and the links it covers
 * (collect.ts): each URL once with all its uses, the JSON the server's reader accepts or
 * refuses with a clear message, and the Markdown editors read, pinned.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { collectLinks } from '../../functions/links/collect.ts';
import { linkReportMarkdown } from '../../functions/links/report-markdown.ts';
import { countVerdicts, readLinkReport, writeLinkReport, type LinkReport, type LinkResult } from '../../functions/links/report.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'link-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const AT = '2026-11-23T06:00:00.000Z';
const link = (url: string, fields: Partial<LinkResult>): LinkResult => ({
  url,
  verdict: 'ok',
  status: 200,
  redirects: [],
  detail: '200 OK',
  checkedAt: AT,
  uses: [{ kind: 'deal', slug: 'acme', field: 'applicationUrl' }],
  ...fields,
});
const LINKS = [
  link('https://acme.example/credits', {}),
  link('https://old.example/apply', {
    verdict: 'gone',
    status: 404,
    detail: '404 Not Found',
    uses: [
      { kind: 'deal', slug: 'old-deal', field: 'applicationUrl' },
      { kind: 'startup', slug: 'old-shop', field: 'sourceUrl' },
    ],
  }),
  link('https://moved.example/a', {
    verdict: 'moved',
    status: 200,
    finalUrl: 'https://moved.example/b',
    redirects: [{ status: 301, url: 'https://moved.example/b' }],
    detail: '301 Moved Permanently to https://moved.example/b',
  }),
  link('https://slow.example/', { verdict: 'timeout', status: undefined, detail: 'no answer within 10 s (3 tries) | odd' }),
];
const REPORT: LinkReport = { checkedAt: AT, userAgent: 'startup-deals-catalog-link-check/0.1 (+https://deals.example.com/about/)', counts: countVerdicts(LINKS), links: LINKS };

describe('collectLinks', () => {
  test('each URL once, with every record and field using it; sourceUrl read wherever a record has it; --only', () => {
    const deals = [
      { slug: 'b-deal', applicationUrl: 'https://a.example/apply', providerWebsite: 'https://a.example', sourceUrl: 'https://a.example/terms' },
      { slug: 'a-deal', applicationUrl: 'https://a.example/apply' },
    ];
    const startups = [{ slug: 'shop', website: 'https://shop.example', sourceUrl: 'https://a.example/terms' }, { slug: 'no-source' }];
    expect(collectLinks({ deals, startups })).toEqual([
      { url: 'https://a.example', uses: [{ kind: 'deal', slug: 'b-deal', field: 'providerWebsite' }] },
      {
        url: 'https://a.example/apply',
        uses: [
          { kind: 'deal', slug: 'a-deal', field: 'applicationUrl' },
          { kind: 'deal', slug: 'b-deal', field: 'applicationUrl' },
        ],
      },
      {
        url: 'https://a.example/terms',
        uses: [
          { kind: 'deal', slug: 'b-deal', field: 'sourceUrl' },
          { kind: 'startup', slug: 'shop', field: 'sourceUrl' },
        ],
      },
    ]);
    expect(collectLinks({ deals, startups }, new Set(['a-deal']))).toEqual([{ url: 'https://a.example/apply', uses: [{ kind: 'deal', slug: 'a-deal', field: 'applicationUrl' }] }]);
  });
});

describe('the report files', () => {
  test('written whole and read back as written; every verdict counted', async () => {
    const paths = await writeLinkReport(join(dir, 'out', 'link-health.json'), REPORT, linkReportMarkdown(REPORT, 'https://deals.example.com/'));
    expect(paths).toEqual({ json: join(dir, 'out', 'link-health.json'), markdown: join(dir, 'out', 'link-health.md') });
    expect(await readLinkReport(paths.json)).toEqual(REPORT);
    expect(REPORT.counts).toEqual({ ok: 1, moved: 1, gone: 1, 'soft-404': 0, 'home-redirect': 0, parked: 0, timeout: 1, tls: 0, error: 0 });
    expect(await readFile(paths.markdown, 'utf8')).toBe(linkReportMarkdown(REPORT, 'https://deals.example.com'));
  });

  test('no file yet: undefined; a file that is not a report: an error naming it and what is wrong', async () => {
    expect(await readLinkReport(join(dir, 'none.json'))).toBeUndefined();
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"checkedAt": "yesterday"');
    await expect(readLinkReport(bad)).rejects.toThrow(`${bad} is not a link report: `);
    await writeFile(bad, JSON.stringify({ ...REPORT, links: [{ ...LINKS[0], verdict: 'dead' }] }));
    await expect(readLinkReport(bad)).rejects.toThrow(
      `${bad} is not a link report: links.0.verdict: Invalid option: expected one of "ok"|"moved"|"gone"|"soft-404"|"home-redirect"|"parked"|"timeout"|"tls"|"error"`,
    );
  });

  test('more fields are allowed (a later checker may add some)', async () => {
    const later = join(dir, 'later.json');
    await writeFile(later, JSON.stringify({ ...REPORT, durationMs: 1234, links: [{ ...LINKS[0], contentType: 'text/html' }] }));
    expect((await readLinkReport(later))?.links[0]).toMatchObject({ url: 'https://acme.example/credits', contentType: 'text/html' });
  });

  test('the Markdown: counts, then the findings by verdict with the records’ admin pages', () => {
    expect(linkReportMarkdown(REPORT, 'https://deals.example.com')).toMatchInlineSnapshot(`
      "# Link health

      Checked 2026-11-23T06:00:00.000Z: 4 links, used 5 times. User agent: \`startup-deals-catalog-link-check/0.1 (+https://deals.example.com/about/)\`.
      Nothing was changed: each finding is for an editor to judge (docs/freshness.md, "Link health").

      | Verdict | Links |
      | --- | ---: |
      | ok | 1 |
      | moved | 1 |
      | gone | 1 |
      | soft-404 | 0 |
      | home-redirect | 0 |
      | parked | 0 |
      | timeout | 1 |
      | tls | 0 |
      | error | 0 |

      ## Findings

      ### moved (1)

      | Link | What was seen | Used by |
      | --- | --- | --- |
      | <https://moved.example/a> | 301 Moved Permanently to https://moved.example/b | [deal acme](https://deals.example.com/admin/deal/?slug=acme) \`applicationUrl\` |

      ### gone (1)

      | Link | What was seen | Used by |
      | --- | --- | --- |
      | <https://old.example/apply> | 404 Not Found | [deal old-deal](https://deals.example.com/admin/deal/?slug=old-deal) \`applicationUrl\`<br>[startup old-shop](https://deals.example.com/admin/startup/?slug=old-shop) \`sourceUrl\` |

      ### timeout (1)

      | Link | What was seen | Used by |
      | --- | --- | --- |
      | <https://slow.example/> | no answer within 10 s (3 tries) \\| odd | [deal acme](https://deals.example.com/admin/deal/?slug=acme) \`applicationUrl\` |
      "
    `);
    const clean = { ...REPORT, links: [LINKS[0] as LinkResult], counts: countVerdicts([LINKS[0] as LinkResult]) };
    expect(linkReportMarkdown(clean, 'https://deals.example.com')).toContain('## Findings\n\nNone: every link answered as expected.\n');
  });
});
