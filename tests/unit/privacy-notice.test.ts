/**
 * The privacy notice (/privacy/ and its Markdown twin) states what the code does: each figure it
 * gives is the code's own default, every section of member data is in it, and the twin is the
 * page's text with site paths made absolute.
 */
import { describe, expect, test } from 'vitest';
import { UNCONFIRMED_TTL_MS } from '../../functions/auth/account-store.ts';
import { LOGIN_WINDOW_MS } from '../../functions/auth/login-throttle.ts';
import { FLOW_SECONDS } from '../../functions/auth/oidc.ts';
import { loadConfig } from '../../functions/config.ts';
import { RETAIN_DAYS } from '../../functions/search-gaps/store.ts';
import { twinFor } from '../../src/agents/markdown-twins.ts';
import { publicPages } from '../../src/agents/sitemap.ts';
import { paths } from '../../src/agents/site-urls.ts';
import type { CatalogData } from '../../src/catalog/catalog.ts';
import { PRIVACY_FACTS, privacyNotice } from '../../src/members/privacy-notice.ts';
import { MEMBER_DATA } from '../../src/schemas/member-data.ts';

const site = { name: 'Deals', baseUrl: 'https://deals.example/', description: 'Deals for startups.', contact: { email: 'editors@deals.example' } };

describe('the privacy notice', () => {
  test("each figure is the code's default", () => {
    const config = loadConfig({}, '/srv/deals');
    expect(PRIVACY_FACTS.sessionHours * 3600).toBe(config.sessionTtlSeconds);
    expect(PRIVACY_FACTS.unconfirmedHours * 3600 * 1000).toBe(UNCONFIRMED_TTL_MS);
    expect(PRIVACY_FACTS.signInWindowMinutes * 60 * 1000).toBe(LOGIN_WINDOW_MS);
    expect(PRIVACY_FACTS.providerFlowMinutes * 60).toBe(FLOW_SECONDS);
    expect(PRIVACY_FACTS.submissionEmailDays).toBe(config.submissionEmailRetentionDays);
    expect(PRIVACY_FACTS.searchGapDays).toBe(RETAIN_DAYS);
  });

  test('it lists every section of member data, says how long each is kept, and names the figures', () => {
    const text = privacyNotice(site)
      .map((s) => s.markdown)
      .join('\n');
    for (const section of Object.values(MEMBER_DATA)) {
      expect(text).toContain(section.holds);
      expect(text).toContain(section.kept);
    }
    expect(text).toContain(`**${PRIVACY_FACTS.sessionHours} hours**`);
    expect(text).toContain('48 hours');
    expect(text).toContain('deploy/nginx.conf');
    expect(text).toContain('/account/privacy/');
    expect(text).toContain('editors@deals.example');
  });

  test('the page is public: in the sitemap, with a Markdown twin whose site links are absolute', () => {
    const data = { site, deals: [], startups: [], categories: { deals: [], startups: [] } } as unknown as CatalogData;
    expect(publicPages(data).map((p) => p.path)).toContain(paths.privacy);
    const twin = twinFor(paths.privacy, data) ?? '';
    expect(twin.startsWith('# Privacy\n\n## In short\n')).toBe(true);
    expect(twin).toContain('(https://deals.example/account/privacy/)');
    expect(twin).not.toContain('](/');
  });
});
