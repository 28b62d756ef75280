/**
 * `npm run bench:in-process -- search`: the CPU cost of one kind of answer computed afresh
 * (answer cache off) or kept (on), in process, with no socket: `app.fetch` of the bench's own
 * requests for the case, rotated, then the response's header fields and bytes read as the Node
 * adapter reads them. Runs on the catalog `npm run bench` left in bench-out/ (run that first).
 * Reports microseconds per request: median and fastest of five rounds, after a warm-up round.
 * `--words new` makes every search's words new to the server: what each word matched by itself
 * and its stem are forgotten before each request (search.ts `ownMatches`, tokens.ts `queryStem`),
 * so the typo walk and the stemmer run for every word, as for words never searched before.
 * Usage: node scripts/bench/answers-in-process.ts search|category|slug [--cache on] [--words new] [--out bench-out/5000-10000] [--requests 20000]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../functions/config.ts';
import { createDeps } from '../../functions/deps.ts';
import { createApp } from '../../functions/http/app.ts';
import { createLogger } from '../../functions/ops/log.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';
import { GitStore } from '../../functions/store/git-store.ts';
import { forgetQueryStems } from '../../src/catalog/tokens.ts';
import { appAnswer, microsPerCall } from './_in-process.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    cache: { type: 'string', default: 'off' },
    words: { type: 'string', default: 'kept' },
    out: { type: 'string', default: 'bench-out/5000-10000' },
    requests: { type: 'string', default: '20000' },
  },
});
const CASES: Record<string, (path: string) => boolean> = {
  search: (path) => path.includes('search='),
  category: (path) => path.startsWith('/api/v1/deals?') && path.includes('category='),
  slug: (path) => path.includes('slug='),
};
const which = positionals[0] ?? 'search';
const matches = CASES[which];
if (!matches) throw new Error(`no case ${which}: one of ${Object.keys(CASES).join(', ')}`);
const out = resolve(values.out);
const paths = Object.keys(JSON.parse(await readFile(join(out, 'answers.json'), 'utf8')) as object).filter(matches);
const perRound = Number(values.requests);

const work = await mkdtemp(join(tmpdir(), 'bench-in-process-'));
const config = { ...loadConfig({ DATA_DIR: join(work, 'data'), RATE_LIMITS: 'off', ANSWER_CACHE: values.cache }), contentDir: join(out, 'content') };
const deps = createDeps(
  config,
  await loadGeneratedCatalog(join(out, 'generated')),
  await GitStore.open(config.contentDir),
  'x'.repeat(64),
  createLogger(() => undefined),
);
const app = createApp(deps);

const newWords = values.words === 'new';
const answer = (i: number): Promise<number> => {
  if (newWords) {
    const { catalog } = deps.state();
    catalog.dealSearch.index.wordMatches.clear();
    catalog.startupSearch.index.wordMatches.clear();
    forgetQueryStems();
  }
  return appAnswer(app, paths[i % paths.length] as string, '127.0.0.1');
};
const { median, fastest } = await microsPerCall(answer, perRound, 5);
console.log(
  `${which}, ${paths.length} requests rotated, answer cache ${values.cache}${newWords ? ', every word new' : ''}: median ${median.toFixed(1)} µs, fastest ${fastest.toFixed(1)} µs per request`,
);
await deps.submissions.close();
await rm(work, { recursive: true, force: true });
