/**
 * `npm run verify-links` over the starter catalog (content/, issue 20's target): every host its
 * records link to is pointed at local servers with `--resolve`, each host playing one fate in
 * turn (so the host-wide ones, a bad certificate, a refused connection, a page for every path,
 * hold for all its links), and the verdicts are compared with what was planted. The confusion
 * table (planted verdict by row, verdict got by column) is printed for docs/freshness.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LinkTarget } from '../../functions/links/collect.ts';
import { LINK_REPORT_JSON, readLinkReport, VERDICTS, type LinkReport, type Verdict } from '../../functions/links/report.ts';
import { contentLinks, EXPECTED, expectedVerdict, folderHashes, runVerifyLinks, startLinkServers, type Behaviour, type LinkServers } from '../helpers/links-support.ts';

const CONTENT = resolve(import.meta.dirname, '..', '..', 'content');
const BEHAVIOURS = Object.keys(EXPECTED) as Behaviour[];

let dir: string;
let servers: LinkServers;
let links: LinkTarget[];
let report: LinkReport;
const plan = new Map<string, Behaviour>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-links-catalog-'));
  links = await contentLinks(CONTENT);
  const hosts = [...new Set(links.map((link) => new URL(link.url).hostname))].sort();
  for (const link of links) plan.set(new URL(link.url).href, BEHAVIOURS[hosts.indexOf(new URL(link.url).hostname) % BEHAVIOURS.length] as Behaviour);
  servers = await startLinkServers(join(dir, 'certs'), plan);
  const before = await folderHashes(CONTENT);
  const run = await runVerifyLinks([CONTENT, '--out', dir, '--timeout', '1', '--retries', '1', '--concurrency', '16', ...servers.resolveArgs], servers.env);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(await folderHashes(CONTENT)).toEqual(before);
  report = (await readLinkReport(join(dir, LINK_REPORT_JSON))) as LinkReport;
});

afterAll(async () => {
  await servers?.stop();
  await rm(dir, { recursive: true, force: true });
});

test('every planted case of the starter catalog is classified as planted (confusion table)', () => {
  const table = new Map<Verdict, Map<Verdict, number>>(VERDICTS.map((verdict) => [verdict, new Map(VERDICTS.map((got) => [got, 0]))]));
  const wrong: string[] = [];
  for (const link of report.links) {
    const planted = plan.get(new URL(link.url).href) as Behaviour;
    const expected = expectedVerdict(link.url, planted);
    const row = table.get(expected) as Map<Verdict, number>;
    row.set(link.verdict, (row.get(link.verdict) ?? 0) + 1);
    if (link.verdict !== expected) wrong.push(`${link.url} (${planted}): expected ${expected}, got ${link.verdict}: ${link.detail}`);
  }
  const lines = [`| planted \\ got | ${VERDICTS.join(' | ')} |`, `| --- |${' ---: |'.repeat(VERDICTS.length)}`];
  for (const [expected, row] of table) lines.push(`| ${expected} | ${VERDICTS.map((got) => row.get(got)).join(' | ')} |`);
  // And by planted case: how each server behaviour fared.
  lines.push('', '| planted case | links | as planted |', '| --- | ---: | ---: |');
  for (const behaviour of BEHAVIOURS) {
    const planted = report.links.filter((link) => plan.get(new URL(link.url).href) === behaviour);
    lines.push(`| ${behaviour} | ${planted.length} | ${planted.filter((link) => link.verdict === expectedVerdict(link.url, behaviour)).length} |`);
  }
  console.log(
    `${report.links.length} links (${links.reduce((sum, link) => sum + link.uses.length, 0)} uses) of ${new Set(links.map((link) => new URL(link.url).hostname)).size} hosts\n${lines.join('\n')}`,
  );

  expect(report.links.map((link) => link.url)).toEqual(links.map((link) => link.url));
  expect(wrong).toEqual([]);
  // Every verdict was planted at least once.
  expect(VERDICTS.filter((verdict) => [...(table.get(verdict)?.values() ?? [])].every((n) => n === 0))).toEqual([]);
});
