/**
 * The link checker's verdicts from observations (functions/links/classify.ts) and how it reads a page
 * (functions/links/page.ts): each rule on made-up answers, no network.
 */
import { describe, expect, test } from 'vitest';
import { classify, isHomePage, type Observation } from '../../functions/links/classify.ts';
import { findPhrase, readPage, textSimilarity } from '../../functions/links/page.ts';
import type { Redirect } from '../../functions/links/report.ts';

const LINK = 'https://acme.example/startups/credits';
const ARTICLE = 'Acme gives startups up to ten thousand dollars in cloud credits for their first year, with support from engineers and a community of founders.';

/** An answer to LINK (or `url`), after `redirects`, with a page when `title`/`text` are given. */
function answer(status: number, options: { url?: string; final?: string; redirects?: Redirect[]; title?: string; text?: string; attempts?: number } = {}): Observation {
  const url = options.url ?? LINK;
  const page = options.title !== undefined || options.text !== undefined ? { page: { title: options.title ?? '', text: options.text ?? '' } } : {};
  return { url, redirects: options.redirects ?? [], attempts: options.attempts ?? 1, outcome: { kind: 'answer', status, url: options.final ?? url, ...page } };
}

describe('classify', () => {
  test('a 200 page is ok; the status and no final URL are recorded', () => {
    expect(classify(answer(200, { title: 'Credits – Acme', text: ARTICLE }))).toEqual({ verdict: 'ok', detail: '200 OK', status: 200 });
  });

  test('failures keep their kind, with the tries and any redirects before them', () => {
    const observed: Observation = {
      url: LINK,
      redirects: [{ status: 302, url: 'https://acme.example/x' }],
      attempts: 3,
      outcome: { kind: 'failure', failure: 'timeout', detail: 'no answer within 10 s' },
    };
    expect(classify(observed)).toEqual({ verdict: 'timeout', detail: 'no answer within 10 s (3 tries) after 302 to https://acme.example/x' });
    expect(classify({ ...observed, redirects: [], attempts: 1, outcome: { kind: 'failure', failure: 'tls', detail: 'TLS failure: certificate has expired (CERT_HAS_EXPIRED)' } }).verdict).toBe('tls');
  });

  test.each([
    [404, 'gone', '404 Not Found'],
    [410, 'gone', '410 Gone'],
    [500, 'error', '500 Internal Server Error (3 tries)'],
    [503, 'error', '503 Service Unavailable (3 tries)'],
    [429, 'error', '429 Too Many Requests (3 tries): the site asked the checker to slow down'],
    [403, 'error', '403 Forbidden (3 tries): refused to the checker (often a bot wall in front of the site); check it in a browser'],
  ])('%i → %s', (status, verdict, detail) => {
    expect(classify(answer(status, { attempts: 3 }))).toMatchObject({ verdict, detail, status });
  });

  test('gone after a redirect says where it went', () => {
    const redirects = [{ status: 301, url: 'https://acme.example/old' }];
    expect(classify(answer(404, { redirects, final: 'https://acme.example/old' }))).toEqual({
      verdict: 'gone',
      detail: '404 Not Found after 301 to https://acme.example/old',
      status: 404,
      finalUrl: 'https://acme.example/old',
    });
  });

  test('moved: a permanent first redirect to another address; ok when it is the same address or temporary', () => {
    const to = (status: number, final: string, url = LINK) => classify(answer(200, { url, redirects: [{ status, url: final }], final, title: 'Acme', text: ARTICLE }));
    expect(to(301, 'https://acme.example/programs/credits')).toMatchObject({
      verdict: 'moved',
      finalUrl: 'https://acme.example/programs/credits',
      detail: '301 Moved Permanently to https://acme.example/programs/credits',
    });
    expect(to(308, 'https://acme.io/startups/credits').verdict).toBe('moved');
    // http → https, a `www.`, a trailing slash: the same address, not worth an edit.
    expect(to(301, 'https://acme.example/startups/credits', 'http://acme.example/startups/credits')).toMatchObject({
      verdict: 'ok',
      detail: '200 OK after 301 to https://acme.example/startups/credits',
    });
    expect(to(301, 'https://www.acme.example/startups/credits/').verdict).toBe('ok');
    // A downgrade to http is a change to see.
    expect(to(301, 'http://acme.example/startups/credits').verdict).toBe('moved');
    expect(to(302, 'https://acme.example/landing')).toMatchObject({ verdict: 'ok', detail: '200 OK after 302 to https://acme.example/landing', finalUrl: 'https://acme.example/landing' });
    expect(to(307, 'https://acme.example/landing').verdict).toBe('ok');
  });

  test('home-redirect: a deep link that ends at the home page (or a language root); a home page that moves is moved', () => {
    const home = (final: string, url = LINK, status = 302) => classify(answer(200, { url, redirects: [{ status, url: final }], final, title: 'Acme', text: ARTICLE }));
    expect(home('https://acme.example/')).toMatchObject({ verdict: 'home-redirect', detail: 'redirected to the home page https://acme.example/' });
    expect(home('https://acme.example/en-us/').verdict).toBe('home-redirect');
    expect(home('https://acme-new.example/', LINK, 301).verdict).toBe('home-redirect');
    expect(home('https://acme-new.example/', 'https://acme.example', 301).verdict).toBe('moved');
  });

  test('parked: a redirect through a parking service, or a page offering the domain', () => {
    const viaSedo = answer(200, {
      redirects: [{ status: 302, url: 'https://www.sedo.com/search/?domain=acme.example' }],
      final: 'https://www.sedo.com/search/?domain=acme.example',
      title: 'Sedo',
      text: ARTICLE,
    });
    expect(classify(viaSedo)).toMatchObject({ verdict: 'parked', detail: 'redirected to www.sedo.com, a domain parking service' });
    expect(classify(answer(200, { title: 'acme.example', text: 'acme.example — This domain may be for sale! Make an offer.' }))).toMatchObject({
      verdict: 'parked',
      detail: '200 OK, but the page says "this domain may be for sale"',
    });
  });

  test('soft-404 by the words of the title or the top of the page', () => {
    expect(classify(answer(200, { title: '404 | Acme', text: ARTICLE }))).toMatchObject({ verdict: 'soft-404', detail: '200 OK, but the page says "404"' });
    expect(classify(answer(200, { title: 'Acme', text: 'Oops! We can’t find that. This page doesn’t exist.' })).detail).toBe('200 OK, but the page says "page doesn\'t exist"');
    expect(classify(answer(200, { title: 'Startup credits – Acme', text: 'Home › Credits. This offer has expired. See our other programs.' })).verdict).toBe('soft-404');
    expect(classify(answer(200, { title: 'Acme', text: 'Sadly, the Acme Founders Program has been discontinued.' })).verdict).toBe('soft-404');
    // The same words far down a long page are a FAQ, not the page's state; "not found" in text alone is too common.
    expect(classify(answer(200, { title: 'Acme', text: `${ARTICLE.repeat(20)} What if this offer has expired?` })).verdict).toBe('ok');
    expect(classify(answer(200, { title: 'Acme', text: `${ARTICLE} Not found what you need? Write to us.` })).verdict).toBe('ok');
  });

  describe('soft-404 by the site’s answer to a random path', () => {
    const random = (page: { title: string; text: string }, redirects: Redirect[] = [], final = 'https://acme.example/zq81c3d0e2') =>
      answer(200, { url: 'https://acme.example/zq81c3d0e2', redirects, final, ...page });
    const notHere = { title: 'Acme', text: 'We looked everywhere but could not locate /zq81c3d0e2 on this site. Try the search box or browse our programs for founders.' };

    test('the same page as the random path (its echoed path aside) is a soft-404', () => {
      const page = { title: 'Acme', text: notHere.text.replace('/zq81c3d0e2', '/startups/credits') };
      expect(classify(answer(200, page), random(notHere))).toMatchObject({
        verdict: 'soft-404',
        detail: '200 OK, but the page is the one the site answers a random path with (same title, 100% the same text)',
      });
    });

    test('nearly the same text whatever the titles; same title with different text is a real page', () => {
      expect(classify(answer(200, { title: 'Credits', text: ARTICLE }), random({ title: 'Acme', text: ARTICLE })).detail).toBe(
        '200 OK, but the page is the one the site answers a random path with (100% the same text)',
      );
      expect(classify(answer(200, { title: 'Acme', text: ARTICLE }), random(notHere)).verdict).toBe('ok');
    });

    test('redirected to where a random path is redirected', () => {
      const hop = (url: string) => [{ status: 302, url }];
      const observed = answer(200, { redirects: hop('https://acme.example/sorry'), final: 'https://acme.example/sorry', title: 'Acme', text: ARTICLE });
      expect(classify(observed, random(notHere, hop('https://acme.example/sorry'), 'https://acme.example/sorry'))).toMatchObject({
        verdict: 'soft-404',
        detail: '200 OK, but a random path on the site is redirected to the same page',
      });
    });

    test('not compared: a home page, a random path that is 404, a page too bare to judge', () => {
      expect(classify(answer(200, { url: 'https://acme.example', ...notHere }), random(notHere)).verdict).toBe('ok');
      expect(classify(answer(200, notHere), answer(404, { url: 'https://acme.example/zq81c3d0e2' })).verdict).toBe('ok');
      const shell = { title: 'Acme', text: 'Loading…' };
      expect(classify(answer(200, shell), random(shell))).toMatchObject({ verdict: 'ok', detail: '200 OK (little text: a page drawn by JavaScript is not read)' });
    });
  });

  test.each([
    ['https://acme.example', true],
    ['https://acme.example/', true],
    ['https://acme.example/?ref=x', true],
    ['https://acme.example/en/', true],
    ['https://acme.example/fr-ca', true],
    ['https://acme.example/startups', false],
    ['https://acme.example/en/startups', false],
  ])('isHomePage(%s) is %s', (url, home) => {
    expect(isHomePage(url)).toBe(home);
  });
});

describe('reading a page', () => {
  test('title and visible text: no head, scripts, styles or comments; entities decoded; spaces collapsed', () => {
    const html = `<!doctype html><html><head><title> Page &amp; not\n found </title><style>h1{color:red}</style><script>var notFound = true</script></head>
      <body><!-- hidden --><h1>Sorry&nbsp;&#8212; it&#x2019;s gone</h1><noscript>Enable JavaScript</noscript><svg><text>logo</text></svg><p>Back <a href="/">home</a>.</p></body></html>`;
    expect(readPage(html)).toEqual({ title: 'Page & not found', text: 'Sorry — it’s gone Back home .' });
  });

  test('phrases match whole words in any case, with typographic apostrophes', () => {
    expect(findPhrase('Error 404 – Acme', ['404'])).toBe('404');
    expect(findPhrase('Call 14045 today', ['404'])).toBeUndefined();
    expect(findPhrase('PAGE NOT  FOUND', ['page not found'])).toBe('page not found');
    expect(findPhrase('The page can’t be found', ["page can't be found"])).toBe("page can't be found");
  });

  test('text similarity: the share of three-word sequences in common', () => {
    expect(textSimilarity(ARTICLE, ARTICLE)).toBe(1);
    expect(textSimilarity('the page was not found here', 'the page was not found there')).toBe(0.6);
    expect(textSimilarity(ARTICLE, 'Completely different words about something else entirely')).toBe(0);
    expect(textSimilarity('', '')).toBe(1);
  });
});
