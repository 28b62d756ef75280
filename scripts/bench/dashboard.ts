/**
 * `npm run bench:dashboard [-- --deals N --saved S --runs R]`: the dashboard's target (issue 18,
 * item 4: under 50 ms of server time for a member with 200 saved items on the 5,000-deal
 * catalog). The synthetic catalog (scripts/generate.ts) built in process; a member in a fresh
 * SQLite database (the embedded default) with S saved deals, a tenth of them changed since last
 * seen, and a profile (stage, region, funding, what they build). Then the dashboard as
 * GET /api/v1/me/dashboard computes it (functions/members/dashboard.ts `dashboardOf`: the two
 * database reads, the join with the catalog, expiring soon and "you may qualify") and its JSON,
 * per run; medians of R runs after one warm-up. The page itself renders this same answer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { openAccountStore } from '../../functions/auth/account-store.ts';
import { AccountBook } from '../../functions/auth/accounts.ts';
import { dashboardOf, type DashboardDeps } from '../../functions/members/dashboard.ts';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { snapshotOf } from '../../src/catalog/saved-changes.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';

const { values } = parseArgs({ options: { deals: { type: 'string', default: '5000' }, saved: { type: 'string', default: '200' }, runs: { type: 'string', default: '15' } } });
const ROOT = resolve(import.meta.dirname, '..', '..');
const runs = Number(values.runs);
const TODAY = new Date().toISOString().slice(0, 10);
const EMAIL = 'bench-member@example.com';

const work = await mkdtemp(join(tmpdir(), 'bench-dashboard-'));
try {
  const contentDir = join(work, 'content');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'generate.ts'), '--deals', values.deals, '--startups', '0', '--out', contentDir], { stdio: 'ignore' });
  const built = runPipeline(await readContent(contentDir), { today: TODAY });
  if (!built.value) throw new Error('the generated content does not build');
  const catalog = createCatalog(built.value.data, built.value.postings);

  // The member: S saved deals spread over the catalog, every tenth seen with an older value.
  const store = await openAccountStore({ dataDir: work });
  await store.put({ email: EMAIL, role: 'member' });
  const step = Math.max(1, Math.floor(catalog.deals.length / Number(values.saved)));
  for (let i = 0; i < Number(values.saved); i += 1) {
    const deal = catalog.deals[(i * step) % catalog.deals.length];
    if (!deal) break;
    const now = snapshotOf({ kind: 'deal', recordId: deal.id, title: deal.title }, catalog, TODAY);
    const seen = i % 10 === 0 ? { ...now, value: 'an older value' } : now;
    await store.savedItems.add(EMAIL, { kind: 'deal', recordId: deal.id, title: deal.title, slug: deal.slug }, seen, new Date(Date.now() - i * 1000));
  }
  await store.profiles.put(EMAIL, { stage: 'seed', region: 'fr', fundingUsd: 500_000, builds: 'cloud hosting for AI teams', alerts: true }, new Date());
  await store.close();

  const deps = { state: () => ({ catalog }), clock: () => new Date(), auth: { accounts: new AccountBook({ dataDir: work }) } } as unknown as DashboardDeps;
  const times: number[] = [];
  let answer = await dashboardOf(EMAIL, deps);
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    answer = await dashboardOf(EMAIL, deps);
    JSON.stringify(answer);
    times.push(performance.now() - started);
  }
  await deps.auth.accounts.close();
  times.sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `# Dashboard: ${catalog.deals.length} deals, ${answer.saved.length} saved (${answer.changed} changed), ${answer.mayQualify.length} suggestions, ${answer.expiringSoon.length} expiring soon`,
  );
  console.log(
    `server time per dashboard (SQLite reads, join, lists, JSON): median ${ms(times[Math.floor(times.length / 2)] as number)}, min ${ms(times[0] as number)}, max ${ms(times.at(-1) as number)} over ${runs} runs; target < 50 ms`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
