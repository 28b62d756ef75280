/**
 * `npm run bench:changes [-- --deals N --commits C --runs R]`: the change feed's target (issue 20,
 * item 4: a `since` query on a 5,000-deal repository with 1,000 commits answers in under 50 ms
 * cached and under 1 s cold). Builds the repository in `bench-out/changes-<N>-<C>/`: the
 * synthetic catalog (scripts/generate.ts, no startups) as the first commit, then C - 1 small
 * commits written with `git fast-import` (each changes one or two deals: a field, an expiry,
 * a new deal, a rename or a deletion, an hour apart), packed by `git gc`. Then GET /api/v1/changes through the
 * app in process (the route table, the handler, the feed over the git store), per query:
 * cold, as in a fresh process (a new feed and answer cache each run: nothing listed, read or
 * kept; git's files are in the OS cache), and cached, the same request again; medians of R
 * runs. Also: every page of a query that matches nothing (every commit read), a new query on
 * a warm feed (its commits' changes kept), and the same after a new commit on top (the feed
 * lists only it).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ChangeFeed } from '../../functions/changes/change-feed.ts';
import { loadConfig } from '../../functions/config.ts';
import { createDeps, type Deps } from '../../functions/deps.ts';
import { createApp } from '../../functions/http/app.ts';
import { createLogger } from '../../functions/ops/log.ts';
import { PreparedCache } from '../../functions/reads/prepared-cache.ts';
import { GitStore } from '../../functions/store/git-store.ts';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { seededRandom } from '../seeded-random.ts';

const { values } = parseArgs({ options: { deals: { type: 'string', default: '5000' }, commits: { type: 'string', default: '1000' }, runs: { type: 'string', default: '7' } } });
const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'bench-out', `changes-${values.deals}-${values.commits}`);
const repo = join(OUT, 'repo');
const contentDir = join(repo, 'content');
const runs = Number(values.runs);
const git = (args: string[], input?: string, env: Record<string, string> = {}) =>
  execFileSync('git', args, { cwd: repo, input, maxBuffer: 1 << 30, encoding: 'utf8', env: { ...process.env, ...env } });
const BENCH = ['-c', 'user.name=Bench', '-c', 'user.email=bench@localhost'];

// 1. The repository: the generated catalog committed, then small commits by fast-import.
await rm(OUT, { recursive: true, force: true });
execFileSync(process.execPath, [join(ROOT, 'scripts', 'generate.ts'), '--deals', values.deals, '--startups', '0', '--out', contentDir], { stdio: 'ignore' });
git(['init', '-q', '-b', 'main']);
git(['add', '-A']);
// Dated before the small commits, as it would have been made.
git([...BENCH, 'commit', '-q', '-m', 'Import the catalog'], undefined, { GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' });
git(['fast-import', '--quiet'], historyStream(Number(values.commits) - 1));
git(['reset', '-q', '--hard', 'main']);
// Packed, as git's own maintenance leaves a repository (fast-import's pack deltas every tree on the one before).
git(['gc', '-q']);
const commits = git(['rev-list', '--first-parent', 'main']).trim().split('\n');
const built = runPipeline(await readContent(contentDir), { today: '2026-11-21' });
if (!built.value) throw new Error('the generated content does not build');
const catalog = createCatalog(built.value.data, built.value.postings);
console.log(`# Change feed: ${catalog.deals.length} deals, ${commits.length} commits (${OUT})\n`);

// 2. The queries, cold and cached.
const dayBefore = new Date(Date.parse(git(['log', '-1', '--format=%cI', 'main']).trim()) - 86_400_000).toISOString().slice(0, 19) + 'Z';
const queries: [string, string][] = [
  ['since a day ago (24 commits)', `since=${dayBefore}`],
  ['since a commit 100 back', `since=${commits[100]}`],
  ['since the import (every small commit)', `since=${commits.at(-1)}`],
  ['no since, first page (limit 50)', 'limit=50'],
  ['kind=startup (none in the repository): one page, its 100 commits read', 'kind=startup'],
];
const app = await served();
console.log('| query | cold, median (min–max) | cached, median |\n|---|---|---|');
for (const [name, query] of queries) {
  const cold: number[] = [];
  const cached: number[] = [];
  for (let run = 0; run < runs; run++) {
    app.forget();
    cold.push(await timed(app, `/api/v1/changes?${query}`));
    for (let again = 0; again < 5; again++) cached.push(await timed(app, `/api/v1/changes?${query}`));
  }
  console.log(`| ${name} | ${ms(median(cold))} (${ms(Math.min(...cold))}–${ms(Math.max(...cold))}) | ${ms(median(cached))} |`);
}

// 3. Every page of a query matching nothing, to the end: every commit read, the import of every deal included.
app.forget();
let pages = 0;
const walked = performance.now();
for (let next: string | undefined = ''; next !== undefined; pages++) {
  const response = await app.fetch(`/api/v1/changes?kind=startup${next ? `&cursor=${next}` : ''}`);
  next = ((await response.json()) as { next?: string }).next;
}
console.log(`\nEvery page of kind=startup, cold: ${pages} pages, ${ms(performance.now() - walked)} in all.`);

// 4. A warm feed: a new query (its commits' changes kept), and the same after a commit on top (only it listed and read).
app.forget();
await timed(app, `/api/v1/changes?since=${commits.at(-1)}`);
const newQuery = await timed(app, `/api/v1/changes?since=${commits.at(-1)}&limit=49`);
git([...BENCH, 'commit', '-q', '--allow-empty', '-m', 'One more']);
await app.deps.content.catchUp();
const onTop = await timed(app, `/api/v1/changes?since=${commits.at(-1)}&limit=49`);
await app.deps.submissions.close();
console.log(`Warm feed: a new query over every small commit ${ms(newQuery)}; the same query after one new commit on top ${ms(onTop)}.`);

// --- internal ---

/** The app over the repository; `forget` drops the feed and the answers kept, as a new process has none. */
async function served(): Promise<{ deps: Deps; fetch: (path: string) => Promise<Response>; forget: () => void }> {
  const config = { ...loadConfig({ DATA_DIR: join(OUT, 'data'), RATE_LIMITS: 'off' }), contentDir };
  const log = createLogger(() => undefined);
  const deps = createDeps(config, catalog, await GitStore.open(contentDir), 'x'.repeat(64), log);
  await deps.content.start(0);
  // The catalog's own start-up work (its default lists, compressed) is done before anything is timed.
  await new Promise((done) => setTimeout(done, 3000));
  const app = createApp(deps);
  const forget = () => {
    deps.changes = new ChangeFeed(deps.store, log);
    deps.prepared = new PreparedCache({ maxEntries: config.answerCacheEntries, maxBytes: config.answerCacheBytes, answers: config.answerCache });
  };
  return { deps, fetch: (path) => app.fetch(new Request(`http://bench.test${path}`), { address: '127.0.0.1' }), forget };
}

async function timed(app: { fetch: (path: string) => Promise<Response> }, path: string): Promise<number> {
  const started = performance.now();
  const response = await app.fetch(path);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function ms(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
}

/** `count` commits for `git fast-import`, each changing one or two deals of the tree as it stands. */
function historyStream(count: number): string {
  const random = seededRandom(20);
  const files = new Map(readdirSync(join(contentDir, 'deals')).map((name) => [`content/deals/${name}`, readFileSync(join(contentDir, 'deals', name), 'utf8')]));
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const pick = () => [...files.keys()][Math.floor(random() * files.size)] as string;
  const out: string[] = [];
  let time = Date.parse('2026-01-02T00:00:00Z') / 1000;
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    const edits = 1 + Math.floor(random() * 2);
    for (let e = 0; e < edits; e++) {
      const path = pick();
      const text = files.get(path) as string;
      const roll = random();
      let next: [string, string | null][];
      if (roll < 0.55) next = [[path, text.replace(/^value: .*$/m, `value: up to $${1000 + i} in credits`)]];
      else if (roll < 0.65) next = [[path, text.replace(/^status: .*$/m, 'status: expired')]];
      else if (roll < 0.8) next = [[path.replace(/\.md$/, `-new-${i}.md`), text.replace(/^id: .*$/m, `id: d-bench${i}x${e}`).replace(/^title: (.*)$/m, `title: $1 ${i}`)]];
      else if (roll < 0.9)
        next = [
          [path, null],
          [path.replace(/\.md$/, `-r${i}.md`), text],
        ];
      else next = [[path, null]];
      for (const [p, t] of next) {
        if (t === null) files.delete(p);
        else files.set(p, t);
        lines.push(t === null ? `D ${p}\n` : `M 100644 inline ${p}\n${data(t)}`);
      }
    }
    time += 3600;
    out.push(`commit refs/heads/main\ncommitter Editor <editor@example.com> ${time} +0000\n${data(`Change ${i}`)}${i === 0 ? 'from refs/heads/main^0\n' : ''}${lines.join('')}\n`);
  }
  return out.join('');
}
