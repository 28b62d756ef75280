/**
 * Browser end-to-end tests: real headless Chromium against the real server (content build,
 * Astro build and `scripts/serve.ts`, started once for the whole run; see helpers/site.ts).
 * Each suite lives in `suites/`.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { accessibilitySuite } from './suites/accessibility.ts';
import { adminSuite } from './suites/admin.ts';
import { appearanceSuite } from './suites/appearance.ts';
import { dealPageSuite } from './suites/deal-page.ts';
import { factsSuite } from './suites/facts.ts';
import { filtersSuite } from './suites/filters.ts';
import { headAndLayoutSuite } from './suites/head-and-layout.ts';
import { liveHeadSuite } from './suites/live-head.ts';
import { phoneLayoutSuite } from './suites/phone-layout.ts';
import { searchGapsSuite } from './suites/search-gaps.ts';
import { searchSuite } from './suites/search.ts';
import { submitSuite } from './suites/submit.ts';

beforeAll(() => setUp());
afterAll(tearDown);

searchSuite();
filtersSuite();
factsSuite();
dealPageSuite();
submitSuite();
appearanceSuite();
accessibilitySuite();
headAndLayoutSuite();
phoneLayoutSuite();
searchGapsSuite();
adminSuite();
liveHeadSuite();

// Last: nothing above made the server log an error (no unexpected 500s).
test('the server logged no errors during the run', () => {
  expect(e2e().site.errors).toEqual([]);
});
