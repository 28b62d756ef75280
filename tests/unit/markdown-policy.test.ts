/**
 * One content policy for every Markdown output (issue 11, item 14): the Markdown twin of a deal
 * page, llms-full.txt and the MCP tool text and resources carry editor- and submitter-written
 * text, so raw HTML is shown as text, only http(s) and site-relative links stay links, images
 * never load, and a description cannot add headings or code fences to the document around it.
 * A hostile deal goes through the real write path (ContentSnapshot) into a real catalog. A
 * redemption code becomes one exact code span, and links are found in linear work.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../functions/deps.ts';
import { SearchGaps } from '../../functions/search-gaps/search-gaps.ts';
import { MemorySearchGapStore } from '../../functions/search-gaps/store.ts';
import { API_ROUTES } from '../../functions/http/routes.ts';
import { llmsFullTxt, llmsTxt } from '../../src/agents/llms.ts';
import { markdownToHtml } from '../../src/agents/markdown-html.ts';
import { codeSpan, markdownContent } from '../../src/agents/markdown-policy.ts';
import { scanSteps } from '../../src/agents/markdown-scan.ts';
import { twinFor } from '../../src/agents/markdown-twins.ts';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import { createCatalog, withChangedDeals, type Catalog } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { FIXTURES } from '../helpers/server.ts';
import { expectNeutralised, HOSTILE_DESCRIPTION, HOSTILE_FIELDS, readCodeSpan } from '../helpers/hostile-markdown.ts';

const TODAY = '2026-11-21';
let catalog: Catalog;
let hostile: Deal;
/** What the MCP handler reads: only the catalog being served. */
const deps = { state: () => ({ catalog }), searchGaps: new SearchGaps(new MemorySearchGapStore(), () => '2026-11-23') } as unknown as Deps;

beforeAll(async () => {
  const result = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: TODAY });
  if (!result.value) throw new Error('fixture does not build');
  const built = createCatalog(result.value.data, result.value.postings);
  const template = built.deals.find((d) => d.status === 'active' && d.category === 'cloud-credits') as Deal;
  const next = new ContentSnapshot(built).withDealChanges([{ ...template, ...HOSTILE_FIELDS, id: 'd-hostile01', slug: 'hostile-deal', description: HOSTILE_DESCRIPTION }], [], TODAY);
  if (!next.value) throw new Error(JSON.stringify(next.diagnostics));
  catalog = withChangedDeals(built, next.value.data, next.value.changed, next.value.removedIds);
  hostile = catalog.dealBySlug.get('hostile-deal') as Deal;
});

/** The MCP endpoint's handler, as the route table wires it (its resources read the documents' cache). */
const handleMcp = (request: Request, served: Deps) => (API_ROUTES.find((route) => route.path === '/mcp')?.methods.POST?.handler ?? fail())(request, served, {} as never);
const fail = (): never => {
  throw new Error('no MCP route');
};

/** One JSON-RPC call through the MCP handler (no port); its `result`. */
async function mcp(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const request = new Request('http://x/api/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const response = await handleMcp(request, deps);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  expect(body.error).toBeUndefined();
  return body.result ?? {};
}

/** Lines that a fence (``` or ~~~ at most 3 spaces in) opens or closes, before line `index`. */
const fencesBefore = (lines: string[], index: number): number => lines.slice(0, index).filter((l) => /^ {0,3}(`{3,}|~{3,})/.test(l)).length;

describe('the hostile deal, as every Markdown output carries it', () => {
  test('(a) the Markdown twin of its page: no raw HTML, no script links, no images, one H1', () => {
    const twin = twinFor(paths.deal(hostile), catalog) ?? '';
    expect(twin).toContain('click');
    expectNeutralised(twin);
    expect(twin.split('\n').filter((l) => /^# /.test(l))).toHaveLength(1);
  });

  test('(b) llms-full.txt: neutralised, and the description adds no heading above its deal and leaves no fence open', () => {
    const text = llmsFullTxt(catalog);
    expectNeutralised(text);
    const lines = text.split('\n');
    const categories = new Set([...catalog.categories.deals.map((c) => `## ${c.name}`), '## Startups for sale']);
    expect(
      lines
        .filter((l) => /^#{1,2} /.test(l))
        .slice(1)
        .filter((l) => !categories.has(l)),
    ).toEqual([]);
    // A setext underline would turn the line above it into an H1 or H2.
    lines.forEach((line, i) => {
      if (/^ {0,3}(=+|-+)\s*$/.test(line)) expect(lines[i - 1]?.trim(), `line ${i + 1}`).toBe('');
    });
    // Every deal heading and the startups section stand outside code.
    lines.forEach((line, i) => {
      if (/^#{2,3} /.test(line)) expect(fencesBefore(lines, i) % 2, line).toBe(0);
    });
  });

  test('llms.txt carries titles of categories and the site only; it stays neutral too', () => {
    expectNeutralised(llmsTxt(catalog), { requireText: false });
  });

  test('(c) MCP: search_deals text and the llms-full.txt resource', async () => {
    const found = (await mcp('tools/call', { name: 'search_deals', arguments: { query: 'hostile' } })) as { content: { text: string }[] };
    const text = found.content.map((c) => c.text).join('\n');
    expect(text).toContain('1 matching deal');
    expectNeutralised(text, { requireText: false });
    const read = (await mcp('resources/read', { uri: absolute(catalog.site.baseUrl, paths.llmsFull) })) as { contents: { text: string }[] };
    expectNeutralised(read.contents[0]?.text ?? '');
  });
});

describe('markdownContent', () => {
  test.each(['[~~~](javascript:x)', '[# Injected](javascript:x)', '- [# Injected](javascript:x)', '[---](data:x)', 'Para\n[===](javascript:x)', '![> quote](javascript:x)', '[1. item](javascript:x)'])(
    'a link reduced to its text starts no block: %j',
    (line) => {
      const out = markdownContent(`${line}\n\nafter`, { headingLevel: 4 });
      expect(out.split('\n').at(-1)).toBe('after');
      expect(out).not.toMatch(/^(?:- )?(?:#{1,3} |~~~|---|===|> |1\. )/m);
    },
  );

  test('no `[` is left but the opener of an allowed link: a linkify that takes a backslash into a URL frees no other', () => {
    const out = markdownContent('https://ok.example/p\\[a [b] c](javascript:x) and [d](https://ok.example/d)', { headingLevel: 2 });
    expect(out).toBe('https://ok.example/p&#91;a &#91;b] c](javascript:x) and [d](https://ok.example/d)');
  });

  test('a code span with `<` or `[` in it is shown as text, so a reader whose linkify takes its backtick into a URL finds no HTML', () => {
    const out = markdownContent('See https://ok.example/p`<img src=x onerror=alert(1)>` and `[x](javascript:y)`, keep `a<b`? No: keep `SAVE20`.', { headingLevel: 2 });
    expect(out).toBe('See https://ok.example/p&lt;img src=x onerror=alert(1)> and &#91;x\\](javascript:y), keep a&lt;b? No: keep `SAVE20`.');
  });
});

describe('codeSpan', () => {
  test.each(['a`b``c', '`starts', 'ends`', '`', '```', ' spaced ', '  ', 'x ` y', '<script>alert(1)</script>', 'SAVE20', 'a\\`b'])('%j reads back exactly', (code) => {
    expect(readCodeSpan(codeSpan(code))).toBe(code);
  });

  test('the approval line, as the page renders it and as a description line carries it', () => {
    const line = `Redemption code: ${codeSpan('a`b``c')}`;
    expect(line).toBe('Redemption code: ```a`b``c```');
    expect(markdownToHtml(line)).toBe('<p>Redemption code: <code>a`b``c</code></p>');
    expect(markdownContent(line, { headingLevel: 2 })).toBe(line);
  });

  test('line breaks read as spaces, as in any code span; empty text is no span', () => {
    expect(readCodeSpan(codeSpan('a\n\n# b'))).toBe('a  # b');
    expect(codeSpan('')).toBe('');
  });
});

describe('bounded link and code-span scanning (the link regex took 420 ms on 20,000 `[`)', () => {
  /** Hostile lines of a given length: repeated openers, unterminated URLs, backtick runs of every length. */
  const lines: Record<string, (length: number) => string> = {
    'open brackets': (n) => '['.repeat(n),
    'link openers': (n) => '[a]('.repeat(n / 4),
    'unterminated URLs': (n) => '[a](https://x'.repeat(Math.ceil(n / 13)).slice(0, n),
    'brackets in text': (n) => '[a '.repeat(Math.ceil(n / 3)).slice(0, n),
    'long texts': (n) => `[${'a'.repeat(499)}`.repeat(n / 500),
    'backtick runs': (n) => {
      let line = '';
      for (let run = 1; line.length < n; run++) line += `${'`'.repeat(run)} `;
      return line;
    },
  };
  const renderers = { html: markdownToHtml, markdown: (line: string) => markdownContent(line, { headingLevel: 2 }) };

  test.each(Object.keys(lines))('%s: the scanners do work in proportion to the line', (shape) => {
    for (const render of Object.values(renderers)) {
      const work = (length: number) => {
        const before = scanSteps();
        render((lines[shape] as (n: number) => string)(length));
        return scanSteps() - before;
      };
      const [small, large] = [work(20_000), work(40_000)];
      expect(small).toBeLessThanOrEqual(6 * 20_000);
      expect(large).toBeLessThanOrEqual(2.2 * small + 64);
    }
  });
});
