/**
 * The one rule of every link field (src/schemas/fields.ts `normaliseHttpUrl`, issue 14 item 9):
 * a table of inputs with what is stored or why they are refused; every stored form is an RFC
 * 3986 URI by ajv-formats' full `uri` format (what /openapi.json publishes); the zod schemas
 * apply it to each URL field and still emit `format: uri`; and the content pipeline builds a
 * fixable link normalised and reports a refused one by file, line and field.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod';
import { runPipeline } from '../../src/pipeline/build.ts';
import { formatDiagnostic, sortDiagnostics } from '../../src/pipeline/diagnostics.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { DealSchema } from '../../src/schemas/deal.ts';
import { normaliseHttpUrl } from '../../src/schemas/fields.ts';
import { contentJsonSchemas } from '../../src/schemas/json-schemas.ts';
import { StartupSchema } from '../../src/schemas/startup.ts';
import { submissionJsonSchema, SubmissionSchema } from '../../src/schemas/submission.ts';
import { strictAjv } from '../helpers/agents-support.ts';
import { FIXTURES } from '../helpers/server.ts';

const ajv = strictAjv();
/** ajv-formats' full `uri` format, as the tests validate answers against /openapi.json. */
const isUri = ajv.compile({ type: 'string', format: 'uri' });

/** Stored as the right-hand side. */
const NORMALISED: ReadonlyArray<readonly [string, string]> = [
  // The fuzzer's three (issue 14, item 9).
  ['https://example.com/a b', 'https://example.com/a%20b'],
  ['https://Ï', 'https://xn--gda'],
  ['HTTPS://EXAMPLE.COM', 'https://example.com'],
  // IDN host to punycode, non-ASCII path to UTF-8 escapes.
  ['http://例え.jp/パス', 'http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'],
  // Already a URI: unchanged, escapes as written, no `/` added to an empty path.
  ['https://example.com/a%20b', 'https://example.com/a%20b'],
  ['https://example.com/a%2fb', 'https://example.com/a%2fb'],
  ['https://aws.amazon.com/startups/credits', 'https://aws.amazon.com/startups/credits'],
  ['https://www.google.com/s2/favicons?domain=stripe.com&sz=128', 'https://www.google.com/s2/favicons?domain=stripe.com&sz=128'],
  ['http://localhost:4321', 'http://localhost:4321'],
  ['https://example.com/', 'https://example.com/'],
  ['https://example.com?q=1', 'https://example.com?q=1'],
  ['https://example.com#top', 'https://example.com#top'],
  ['http://[::1]:8080/x', 'http://[::1]:8080/x'],
  ['http://127.0.0.1/', 'http://127.0.0.1/'],
  // Case of scheme and host only; the path keeps its case.
  ['Http://Example.COM/Path/To', 'http://example.com/Path/To'],
  // Spaces and characters a URI cannot hold, wherever they are after the host.
  ['https://example.com/a b?q=c d#e f', 'https://example.com/a%20b?q=c%20d#e%20f'],
  ['https://example.com/a|b[c]?x=[1]^2#f#g`h', 'https://example.com/a%7Cb%5Bc%5D?x=%5B1%5D%5E2#f%23g%60h'],
  ['https://example.com/"quoted"<tag>{x}', 'https://example.com/%22quoted%22%3Ctag%3E%7Bx%7D'],
  ['https://example.com/100%', 'https://example.com/100%25'],
  ['https://example.com/%zz?p=%', 'https://example.com/%25zz?p=%25'],
  ['https://example.com/😀?é#ü', 'https://example.com/%F0%9F%98%80?%C3%A9#%C3%BC'],
  // Default port, dot segments, surrounding white space.
  ['HTTPS://EXAMPLE.COM:443/A/../B/./C', 'https://example.com/B/C'],
  ['http://example.com:80', 'http://example.com'],
  ['https://example.com:8443/x', 'https://example.com:8443/x'],
  ['  https://example.com/x \n', 'https://example.com/x'],
  // A numeric IPv4 host as browsers read it.
  ['http://0x7f.1/', 'http://127.0.0.1/'],
];

/** Refused, with the part of the message that says why. */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ['ftp://x', ''],
  ['javascript:alert(1)', ''],
  ['//example.com', ''],
  ['example.com', ''],
  ['/deals/aws', ''],
  ['mailto:team@example.com', ''],
  ['data:text/html,<script>alert(1)</script>', ''],
  ['https:example.com', ''],
  ['https:/example.com', ''],
  ['https:///example.com', ''],
  ['https://', ''],
  ['', ''],
  ['https://user:pw@example.com', 'without a user name or password'],
  ['https://user@example.com', 'without a user name or password'],
  ['https://@example.com', 'without a user name or password'],
  ['https://google.com@evil.example/', 'without a user name or password'],
  ['https://exa mple.com', 'with a valid host name and port'],
  ['https://ex{a}mple.com', 'with a valid host name and port'],
  ['https://a..b', 'with a valid host name and port'],
  ['https://example.com:99999', 'with a valid host name and port'],
  ['https://example.com:port', 'with a valid host name and port'],
  ['https://[::1/', 'with a valid host name and port'],
  ['https://example.com\\evil.example', 'with `/`, not `\\`'],
  ['https:\\\\example.com', ''],
  ['https://exa\tmple.com', 'without tabs, line breaks or other control characters'],
  ['https://example.com/a\nb', 'without tabs, line breaks or other control characters'],
  ['https://example.com/\u0000', 'without tabs, line breaks or other control characters'],
  ['https://example.com/\u0085', 'without tabs, line breaks or other control characters'],
];

describe('normaliseHttpUrl: one rule for every link field', () => {
  test.each(NORMALISED)('%j is stored as %j, a URI by ajv-formats', (input, stored) => {
    expect(normaliseHttpUrl(input)).toEqual({ ok: true, url: stored });
    expect(isUri(stored), stored).toBe(true);
    // Normalising twice changes nothing.
    expect(normaliseHttpUrl(stored)).toEqual({ ok: true, url: stored });
  });

  test.each(REFUSED)('%j is refused', (input, why) => {
    const checked = normaliseHttpUrl(input);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    if (why === '') expect(checked.problem).toBe('');
    else expect(checked.problem).toContain(why);
  });

  test('whatever is accepted is an http(s) URI, stable, and the host a browser would reach', () => {
    const piece = fc.oneof(
      fc.constantFrom('/', '?', '#', '%', '%20', '%zz', ' ', '|', '[', ']', '^', '`', '{', '"', "'", '<', '>', '@', ':', '..', '.', ';', '=', '&', '+', 'é', '例', '😀', '\ud800', '\\', '\t'),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
    );
    const host = fc.constantFrom(
      'example.com',
      'EXAMPLE.com',
      'ÏNTÉRNATIONAL.example',
      '例え.jp',
      'localhost:8080',
      '127.0.0.1',
      '[::1]',
      'a_b.example',
      'exa mple.com',
      'user:pw@x.example',
      'x.example:443',
      '',
    );
    fc.assert(
      fc.property(fc.constantFrom('http://', 'https://', 'HTTPS://', 'hTTp://'), host, fc.array(piece, { maxLength: 12 }), (scheme, h, rest) => {
        const input = `${scheme}${h}${rest.join('')}`;
        const checked = normaliseHttpUrl(input);
        if (!checked.ok) return;
        expect(isUri(checked.url), `${JSON.stringify(input)} → ${checked.url}`).toBe(true);
        expect(checked.url).toMatch(/^https?:\/\/[^/?#\s]/);
        expect(normaliseHttpUrl(checked.url)).toEqual(checked);
        expect(new URL(checked.url).host).toBe(new URL(input.trim()).host);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the zod schemas apply the rule to every URL field', () => {
  const deal = { id: 'd-links001', slug: 'links', title: 'Links', provider: 'Links Co', category: 'cloud-credits', status: 'active', applicationUrl: 'https://example.com/apply' };

  test('a deal stores its three links normalised', () => {
    const parsed = DealSchema.parse({ ...deal, applicationUrl: 'https://example.com/a b', providerWebsite: 'HTTPS://EXAMPLE.COM', logoUrl: 'https://Ï/logo.png' });
    expect(parsed).toMatchObject({ applicationUrl: 'https://example.com/a%20b', providerWebsite: 'https://example.com', logoUrl: 'https://xn--gda/logo.png' });
  });

  test.each(['applicationUrl', 'providerWebsite', 'logoUrl'])('a refused %s is an issue at that field, saying why', (field) => {
    const result = DealSchema.safeParse({ ...deal, [field]: 'https://user:pw@example.com' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[field, 'expected an absolute http:// or https:// URL without a user name or password (`user:pw@`)']]);
  });

  test('a startup website, and a submission: website_url, logo_url, and redemption_link only when it is a link', () => {
    expect(StartupSchema.parse({ id: 's-links001', slug: 'links', name: 'Links', category: 'saas', website: 'http://例え.jp/パス' }).website).toBe('http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9');
    const submission = {
      company_name: 'Acme',
      website_url: 'HTTPS://ACME.example',
      benefit_description: 'Ten percent off for startups.',
      category: 'saas',
      deal_value: '10%',
      redemption_link: 'https://acme.example/deal a',
    };
    expect(SubmissionSchema.parse(submission)).toMatchObject({ website_url: 'https://acme.example', redemption_link: 'https://acme.example/deal%20a' });
    expect(SubmissionSchema.parse({ ...submission, redemption_method: 'code', redemption_link: 'SAVE 20' }).redemption_link).toBe('SAVE 20');
    const refused = SubmissionSchema.safeParse({ ...submission, redemption_link: '//acme.example/deal' });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['redemption_link', 'expected an absolute http:// or https:// URL when redemption_method is link']]);
  });

  test('the JSON Schemas still say `format: uri` for every link, in both directions', () => {
    const link = { type: 'string', format: 'uri', pattern: '^https?://' };
    for (const io of ['input', 'output'] as const) {
      const deals = z.toJSONSchema(DealSchema, { io }) as { properties: Record<string, unknown> };
      // Each deal link also carries its help text (`description`, shown by the admin form).
      for (const field of ['applicationUrl', 'providerWebsite', 'logoUrl']) expect(deals.properties[field], `${io} ${field}`).toEqual({ ...link, description: expect.any(String) });
      expect((z.toJSONSchema(StartupSchema, { io }) as { properties: Record<string, unknown> }).properties.website).toEqual(link);
    }
    expect((contentJsonSchemas()['deal-front-matter.json'] as { properties: Record<string, unknown> }).properties.applicationUrl).toEqual({ ...link, description: expect.any(String) });
    const submission = submissionJsonSchema() as { properties: Record<string, { format?: string }>; then: { properties: Record<string, { format?: string }> } };
    expect([submission.properties.website_url?.format, submission.properties.logo_url?.format, submission.then.properties.redemption_link?.format]).toEqual(['uri', 'uri', 'uri']);
  });
});

describe('the content pipeline', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'links-content-'));
    await cp(join(FIXTURES, 'valid'), join(dir, 'links'), { recursive: true });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const dealFile = (id: string, links: string) => `---
id: ${id}
title: Links ${id}
provider: Links Co
category: cloud-credits
status: active
${links}
---
A deal with links.
`;

  async function build() {
    const result = runPipeline(await readContent(join(dir, 'links')), { today: '2026-11-21' });
    return { value: result.value, lines: sortDiagnostics(result.diagnostics).map(formatDiagnostic) };
  }

  test('a fixable link builds normalised (the file is left as written)', async () => {
    await writeFile(
      join(dir, 'links', 'deals', 'fixable-links.md'),
      dealFile('d-links001', "applicationUrl: https://example.com/a b\nproviderWebsite: HTTPS://EXAMPLE.COM\nlogoUrl: 'http://例え.jp/パス'"),
    );
    await writeFile(join(dir, 'links', 'startups', 'fixable-site.md'), '---\nid: s-links001\nname: Links\ncategory: saas\nwebsite: https://Ï\n---\nA startup.\n');
    const { value, lines } = await build();
    expect(lines).toEqual([]);
    expect(value?.data.deals.find((d) => d.slug === 'fixable-links')).toMatchObject({
      applicationUrl: 'https://example.com/a%20b',
      providerWebsite: 'https://example.com',
      logoUrl: 'http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9',
    });
    expect(value?.data.startups.find((s) => s.slug === 'fixable-site')?.website).toBe('https://xn--gda');
  });

  test('a refused link is an error naming the file, the line and the field', async () => {
    await writeFile(
      join(dir, 'links', 'deals', 'refused-links.md'),
      dealFile('d-links002', 'applicationUrl: https://user:pw@example.com\nproviderWebsite: //example.com\nlogoUrl: https://exa mple.com/logo.png'),
    );
    const { value, lines } = await build();
    expect(value).toBeUndefined();
    expect(lines).toMatchInlineSnapshot(`
      [
        "links/deals/refused-links.md:7 applicationUrl: expected an absolute http:// or https:// URL without a user name or password (\`user:pw@\`), got \`https://user:pw@example.com\`",
        "links/deals/refused-links.md:8 providerWebsite: expected an absolute http:// or https:// URL, got \`//example.com\`",
        "links/deals/refused-links.md:9 logoUrl: expected an absolute http:// or https:// URL with a valid host name and port (no spaces in the host), got \`https://exa mple.com/logo.png\`",
      ]
    `);
  });
});
