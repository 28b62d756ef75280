/**
 * `npm run verify-links` as an operator runs it (issue 20, "Link health"): the real CLI in a
 * child process over a fixture of one deal per fate a link can meet
 * (tests/fixtures/content/links/, the host's first label names the fate), every host pointed at
 * local HTTP and HTTPS servers with `--resolve`. Every verdict, what the report records, the
 * report files as the server reads them, what the servers saw (one descriptive User-Agent, at
 * most two requests per host at once), the exit codes, and the content left byte for byte.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LINK_REPORT_JSON, LINK_REPORT_MARKDOWN, readLinkReport, type LinkReport } from '../../functions/links/report.ts';
import { contentLinks, expectedVerdict, folderHashes, runVerifyLinks, startLinkServers, type Behaviour, type LinkServers } from '../helpers/links-support.ts';
import { freePort } from '../helpers/free-port.ts';
import { FIXTURES } from '../helpers/server.ts';

let dir: string;
let contentDir: string;
let servers: LinkServers;
let run: Awaited<ReturnType<typeof runVerifyLinks>>;
let report: LinkReport;
let contentBefore: Map<string, string>;
const plan = new Map<string, Behaviour>();
/** Short timeouts and one retry keep the run to a few seconds. */
const FAST = ['--timeout', '1', '--retries', '1'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-links-'));
  contentDir = join(dir, 'content');
  await cp(join(FIXTURES, 'links'), contentDir, { recursive: true });
  for (const link of await contentLinks(contentDir)) plan.set(new URL(link.url).href, new URL(link.url).hostname.split('.')[0] as Behaviour);
  servers = await startLinkServers(join(dir, 'certs'), plan);
  contentBefore = await folderHashes(contentDir);
  run = await runVerifyLinks([contentDir, '--out', join(dir, 'out'), ...FAST, ...servers.resolveArgs], servers.env);
  report = (await readLinkReport(join(dir, 'out', LINK_REPORT_JSON))) as LinkReport;
});

afterAll(async () => {
  await servers?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('verify-links over planted links', () => {
  test('the run completes: exit 0 (findings are not failures), each finding printed', () => {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^checking 19 links as startup-deals-catalog-link-check\/0\.1 \(\+https:\/\/deals\.example\.com\/about\/\)\n/);
    expect(run.stdout).toContain('gone          https://gone-404.test/credits  404 Not Found');
    expect(run.stdout).toMatch(/ok 7, moved 1, gone 2, soft-404 3, home-redirect 1, parked 2, timeout 1, tls 1, error 1\nwrote .*link-health\.json and .*link-health\.md\n$/);
  });

  test('every planted link gets its verdict', () => {
    const got = Object.fromEntries(report.links.map((link) => [link.url, link.verdict]));
    const expected = Object.fromEntries(report.links.map((link) => [link.url, expectedVerdict(link.url, plan.get(new URL(link.url).href) as Behaviour)]));
    expect(got).toEqual(expected);
    expect(Object.keys(got)).toHaveLength(19);
  });

  test('what each link records: status, final URL, redirects, tries, what was seen', () => {
    const link = (url: string) => report.links.find((one) => one.url === url);
    expect(link('https://moved.test/program')).toMatchObject({
      status: 200,
      finalUrl: 'https://moved.test/moved-here/program',
      redirects: [{ status: 301, url: 'https://moved.test/moved-here/program' }],
      detail: '301 Moved Permanently to https://moved.test/moved-here/program',
    });
    expect(link('https://temp-redirect.test/apply')).toMatchObject({ verdict: 'ok', status: 200, redirects: [{ status: 302, url: 'https://temp-redirect.test/landing/apply' }] });
    expect(link('https://gone-410.test/credits')).toMatchObject({ status: 410, detail: '410 Gone', redirects: [] });
    expect(link('https://home-redirect.test/old-program')).toMatchObject({ finalUrl: 'https://home-redirect.test/', detail: 'redirected to the home page https://home-redirect.test/' });
    expect(link('https://parked-redirect.test/deal')?.detail).toBe('redirected to sedo.com, a domain parking service');
    expect(link('https://not-found-text.test/offer')?.detail).toBe('200 OK, but the page says "page could not be found"');
    expect(link('https://ended-text.test/accelerator')?.detail).toBe('200 OK, but the page says "program has ended"');
    expect(link('https://catch-all.test/perks/startups')?.detail).toMatch(/^200 OK, but the page is the one the site answers a random path with \(same title, 100% the same text\)$/);
    expect(link('https://flaky.test/apply')).toMatchObject({ verdict: 'ok', status: 200, detail: '200 OK' });
    expect(link('https://hang.test/apply')).toMatchObject({ verdict: 'timeout', detail: 'no answer within 1 s (2 tries)' });
    expect(link('https://hang.test/apply')?.status).toBeUndefined();
    expect(link('https://bad-cert.test/apply')?.detail).toMatch(/^TLS failure: .*self[- ]signed.* \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/);
    expect(link('https://refused.test/apply')?.detail).toBe('connection refused (ECONNREFUSED)');
    // One link shared by a published deal and a draft: fetched once, both uses reported.
    expect(link('https://ok.test/startups')?.uses).toEqual([
      { kind: 'deal', slug: 'ok', field: 'applicationUrl' },
      { kind: 'deal', slug: 'ok-draft', field: 'applicationUrl' },
    ]);
    expect(link('https://ok.test')).toMatchObject({ verdict: 'ok', uses: [{ kind: 'deal', slug: 'ok', field: 'providerWebsite' }] });
  });

  test('the report files: JSON the reader validates, Markdown with the counts and the findings by verdict', async () => {
    expect(report.userAgent).toBe('startup-deals-catalog-link-check/0.1 (+https://deals.example.com/about/)');
    expect(Object.values(report.counts).reduce((sum, n) => sum + n, 0)).toBe(19);
    expect(Date.parse(report.checkedAt)).toBeGreaterThan(Date.now() - 60_000);
    const markdown = await readFile(join(dir, 'out', LINK_REPORT_MARKDOWN), 'utf8');
    expect(markdown).toContain('| Verdict | Links |\n| --- | ---: |\n| ok | 7 |\n| moved | 1 |\n| gone | 2 |');
    expect(markdown).toContain(
      '### gone (2)\n\n| Link | What was seen | Used by |\n| --- | --- | --- |\n| <https://gone-404.test/credits> | 404 Not Found | [deal gone-404](https://deals.example.com/admin/deal/?slug=gone-404) `applicationUrl` |',
    );
    expect(markdown).not.toContain('### ok');
  });

  test('politely: one descriptive User-Agent, at most two requests in flight per host', () => {
    expect([...servers.userAgents]).toEqual([report.userAgent]);
    expect(servers.maxInFlightPerHost()).toBeLessThanOrEqual(2);
  });

  test('no record is changed: the content folder is byte for byte as it was', async () => {
    expect(await folderHashes(contentDir)).toEqual(contentBefore);
  });

  test('when no site answers (the checker is offline), the run fails and the last report is kept', async () => {
    const before = await readFile(join(dir, 'out', LINK_REPORT_JSON), 'utf8');
    const offline = await runVerifyLinks([contentDir, '--out', join(dir, 'out'), '--only', 'gone-404,gone-410', ...FAST, '--resolve', `*:443:127.0.0.1:${await freePort()}`]);
    expect(offline.stderr).toBe("no site answered (2 links): this machine's network or DNS is probably down; the last report is kept\n");
    expect(offline.status).toBe(1);
    expect(await readFile(join(dir, 'out', LINK_REPORT_JSON), 'utf8')).toBe(before);
  });

  test('--fail-on makes a finding fail the run; a wrong command line exits 2 with the usage', async () => {
    const failing = await runVerifyLinks([contentDir, '--out', join(dir, 'out-only'), '--only', 'gone-404', '--fail-on', 'gone,tls', ...FAST, ...servers.resolveArgs], servers.env);
    expect(failing.stdout).toContain('1 link(s) with a verdict in --fail-on');
    expect(failing.status).toBe(1);
    const onlyReport = await readLinkReport(join(dir, 'out-only', LINK_REPORT_JSON));
    expect(onlyReport?.links.map((link) => link.url)).toEqual(['https://gone-404.test/credits']);
    // Each wrong option's message is pinned in tests/unit/link-options.test.ts; here, the exit and the usage.
    const wrongs = [
      ['--timeout', 'soon'],
      ['--only', 'no-such-deal'],
    ];
    const usages = await Promise.all(wrongs.map((wrong) => runVerifyLinks([contentDir, '--out', join(dir, 'out-wrong'), ...wrong])));
    expect(usages.map((usage) => usage.status)).toEqual([2, 2]);
    expect(usages.map((usage) => usage.stderr.split('\n')[0])).toEqual(['--timeout soon: expected a number from 0.1 to 300', '--only no-such-deal: no deal or startup has this slug']);
    for (const usage of usages) expect(usage.stderr).toContain('usage: npm run verify-links');
  });
});
