/**
 * The Markdown content policy end to end (issue 11, item 14) on the real server: a submitter
 * sends hostile text and a coupon code with backticks through POST /api/v1/submit-deal, an admin
 * approves it, and the deal's Markdown twin (`Accept: text/markdown`), /llms-full.txt and the
 * MCP server (official SDK client) carry it neutralised, with the code as one exact code span.
 */
import { afterAll, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp, fetchText, fixtureSite, siteUrl } from '../helpers/agents-support.ts';
import { expectNeutralised, readCodeSpan } from '../helpers/hostile-markdown.ts';
import { ADMIN, call, callFrom, login, uniqueWord, useWriteServer, type WriteServer } from '../helpers/writes-harness.ts';

const CODE = 'a`b``c';
const word = uniqueWord('zqpolicy');
let env: WriteServer;
let slug: string;
let mcp: Client;

useWriteServer([ADMIN], async (started) => {
  env = started;
  const submitted = await callFrom('127.0.14.1', env.url, 'POST', '/api/v1/submit-deal', {
    origin: null,
    body: {
      company_name: `Policy ${word} <img src=x onerror=alert(1)>`,
      website_url: `https://${word}.example`,
      benefit_description: [
        `Free ${word} credits <script>alert(1)</script> for startups.`,
        '',
        '[click](javascript:alert(1)) [x](JaVaScRiPt:alert(2)) [y](data:text/html,<script>alert(3)</script>) <javascript:alert(4)> ![pixel](https://evil.example/p.gif) Intro',
        '',
        '# Injected H1',
      ].join('\n'),
      category: 'cloud',
      deal_value: '[v](javascript:alert(5))',
      redemption_method: 'code',
      redemption_link: CODE,
    },
  });
  expect(submitted.status, submitted.text).toBe(201);
  const cookie = await login(env.url, ADMIN);
  const approved = await call(env.url, 'POST', '/api/v1/admin/submissions/approve', { cookie, body: { id: (submitted.body as { id: string }).id } });
  expect(approved.status, approved.text).toBe(200);
  slug = (approved.body as { deal: { slug: string } }).deal.slug;
  ({ client: mcp } = await connectMcp(env.url, 'markdown-policy-test'));
});

afterAll(async () => {
  await mcp?.close();
});

/** The redemption code as a CommonMark reader gets it back from `Redemption code: …`. */
function redemptionCode(markdown: string): string | undefined {
  const line = markdown.split('\n').find((l) => l.startsWith('Redemption code: '));
  return line === undefined ? undefined : readCodeSpan(line.slice('Redemption code: '.length));
}

test('the Markdown twin of the approved deal: neutralised, one H1, the code exact', async () => {
  const { status, headers, text } = await fetchText(`${env.url}/deals/${slug}/`, { headers: { Accept: 'text/markdown' } });
  expect(status).toBe(200);
  expect(headers.get('content-type')).toMatch(/^text\/markdown/);
  expect(text).toContain(word);
  expectNeutralised(text);
  expect(text.split('\n').filter((l) => /^# /.test(l))).toHaveLength(1);
  expect(redemptionCode(text)).toBe(CODE);
});

test('/llms-full.txt and the MCP search_deals text and llms-full.txt resource', async () => {
  const llmsFull = await fetchText(`${env.url}/llms-full.txt`);
  expect(llmsFull.status).toBe(200);
  expect(llmsFull.text).toContain(word);
  expectNeutralised(llmsFull.text);
  expect(redemptionCode(llmsFull.text)).toBe(CODE);

  const found = await mcp.callTool({ name: 'search_deals', arguments: { query: word } });
  const text = (found.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
  expect(text).toContain(word);
  expectNeutralised(text, { requireText: false });

  const resource = await mcp.readResource({ uri: siteUrl(fixtureSite(), '/llms-full.txt') });
  const body = (resource.contents[0] as { text?: string } | undefined)?.text ?? '';
  expectNeutralised(body);
  expect(redemptionCode(body)).toBe(CODE);
});
