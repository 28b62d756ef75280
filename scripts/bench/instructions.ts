/**
 * `npm run bench:instructions`: the instructions each server runs per answered request, counted
 * by valgrind's callgrind, for the bench's baseline (a bare `node:http` server sending stored
 * bytes) and the real server with the answer cache off and on, case by case. A count does not
 * move with the machine's speed, as req/s does here by a third within minutes
 * (docs/performance.md, twenty-second sitting), so a change of a few percent shows. Only user
 * space is counted, not the kernel's share of a request.
 *
 * Each server runs under callgrind with counting off; once it is idle after its first answer
 * (its start work done), autocannon (in this process) warms it with `--warm` requests, then
 * counting is switched on for `--count` requests. Runs on the catalog
 * `npm run bench` left in bench-out/ (run that first). Needs valgrind (Debian: `apt-get install
 * valgrind`). Usage: node scripts/bench/instructions.ts [--deals 5000 --startups 10000]
 * [--cases slug,category,search] [--sides baseline,off,on] [--warm 20000] [--count 20000] [--runs 1]
 *
 * The windows are long because V8 keeps optimising for a while: after 6,000 requests to warm,
 * 4,000 counted gave an uncached lookup 210,000–259,000 instructions from run to run; after
 * 20,000 and 20,000, a cached one counted 174,000–179,000 (docs/performance.md, twenty-third
 * sitting). Even so, separate processes of the same server can settle apart: a cached lookup
 * counted 138,904 in one and 180,298 in the next (twenty-fourth sitting). `--runs N` counts
 * each side in N fresh processes and gives the middle count, with the range beside it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { settled } from './_process-cpu.ts';
import { benchDir, casesFile, measuredServerEnv, SERVER_NODE_FLAGS, type BenchCase } from './_run-layout.ts';

const { values } = parseArgs({
  options: {
    deals: { type: 'string', default: '5000' },
    startups: { type: 'string', default: '10000' },
    cases: { type: 'string', default: 'slug,category,search' },
    sides: { type: 'string', default: 'baseline,off,on' },
    warm: { type: 'string', default: '20000' },
    count: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '1' },
  },
});
const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = benchDir(ROOT, values.deals, values.startups);
if (!existsSync(casesFile(OUT))) throw new Error(`no benchmark catalog in ${OUT}: run \`npm run bench -- --deals ${values.deals} --startups ${values.startups}\` first`);
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  throw new Error('valgrind is not installed (Debian: apt-get install valgrind)');
}

/** The requests of the bench's own cases, as it wrote them. */
const CASES = JSON.parse(readFileSync(casesFile(OUT), 'utf8')) as BenchCase[];
/** callgrind_control finds a process by names made of these: the same for the server and the controller. */
const NAMES = { USER: 'bench', LOGNAME: 'bench', HOST: '127.0.0.1' };
const SIDES = [
  { key: 'baseline', script: [join(ROOT, 'scripts', 'bench', 'baseline-server.ts'), join(OUT, 'answers.json')], env: {} },
  { key: 'off', script: [join(ROOT, 'scripts', 'serve.ts')], env: { ...measuredServerEnv(OUT), ANSWER_CACHE: 'off' } },
  { key: 'on', script: [join(ROOT, 'scripts', 'serve.ts')], env: measuredServerEnv(OUT) },
];

const countedSides = new Set(values.sides.split(','));
const runs = Math.max(1, Number(values.runs));

const work = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
console.log(
  `# Instructions per request (callgrind), ${values.deals} deals, ${values.startups} startups; ${values.warm} requests to warm, ${values.count} counted${runs > 1 ? `; the median of ${runs} processes a side, their range beside it` : ''}\n`,
);
console.log('| case | baseline | cache off | ratio | cache on | ratio |');
console.log('|---|---|---|---|---|---|');
try {
  for (const name of values.cases.split(',')) {
    const paths = CASES.find((known) => known.key === name)?.paths;
    if (!paths?.length) throw new Error(`unknown case ${name} (${CASES.map((known) => known.key).join(', ')})`);
    const counts: (number[] | undefined)[] = [];
    for (const side of SIDES) counts.push(countedSides.has(side.key) ? await runsOf(side, paths) : undefined);
    const [base, off, on] = counts.map(middle);
    const ratio = (value: number | undefined) => (base === undefined || value === undefined ? '–' : (base / value).toFixed(2));
    const [baseCell, offCell, onCell] = counts.map(cell);
    console.log(`| ${name} | ${baseCell} | ${offCell} | ${ratio(off)} | ${onCell} | ${ratio(on)} |`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The middle of sorted counts (the upper of the two middle ones for an even number). */
function middle(sorted: number[] | undefined): number | undefined {
  return sorted?.[Math.floor(sorted.length / 2)];
}

/** A side's cell: its middle count, with the range of its runs when there are several; a dash when not counted. */
function cell(sorted: number[] | undefined): string {
  const value = middle(sorted);
  if (sorted === undefined || value === undefined) return '–';
  return sorted.length > 1 ? `${value.toFixed(0)} (${(sorted[0] as number).toFixed(0)}–${(sorted.at(-1) as number).toFixed(0)})` : value.toFixed(0);
}

/** A side's count in `runs` fresh processes, sorted. */
async function runsOf(side: (typeof SIDES)[number], paths: string[]): Promise<number[]> {
  const counts: number[] = [];
  for (let run = 0; run < runs; run++) counts.push(await instructionsPerRequest(side, paths));
  return counts.sort((a, b) => a - b);
}

async function instructionsPerRequest(side: (typeof SIDES)[number], paths: string[]): Promise<number> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const out = join(work, `${side.key}-${port}`);
  const env = {
    ...process.env,
    ...NAMES,
    ...side.env,
    GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1',
    PORT: String(port),
  };
  // As `npm run serve` runs the server; the baseline takes its port as an argument.
  const args = ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath, ...SERVER_NODE_FLAGS, ...side.script, String(port)];
  const child = spawn('valgrind', args, { env, stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}`;
    while (!(await answered(url + (paths[0] as string)))) await new Promise((done) => setTimeout(done, 200));
    // Its start work (the compression of its pinned lists among it) must be done before any
    // counted window: under valgrind it ran 38–57 s past the first answer at 50,000 deals, and
    // counted with the requests it made a cached lookup 2,029,878 instructions
    // (docs/performance.md, twenty-fifth sitting).
    const waited = await settled(child, 30 * 60_000);
    console.error(`${side.key}: idle ${waited.toFixed(0)} s after its first answer`);
    await load(url, paths, Number(values.warm));
    control(child, '-i', 'on');
    const counted = await load(url, paths, Number(values.count));
    control(child, '-i', 'off');
    control(child, '-d');
    const total = readdirSync(work)
      .filter((file) => file.startsWith(`${side.key}-${port}`))
      .map((file) => Number(/^totals: (\d+)/m.exec(readFileSync(join(work, file), 'utf8'))?.[1] ?? 0))
      .reduce((sum, value) => sum + value, 0);
    return total / counted;
  } finally {
    child.kill('SIGKILL');
  }
}

function control(child: ChildProcess, ...command: string[]): void {
  execFileSync('callgrind_control', [...command, String(child.pid)], { env: { ...process.env, ...NAMES }, stdio: 'ignore' });
}

/** `amount` requests over `paths`, 8 connections; returns how many were answered 2xx. */
async function load(url: string, paths: string[], amount: number): Promise<number> {
  const result = await autocannon({ url, connections: 8, amount, requests: paths.map((path) => ({ path })) });
  return result['2xx'];
}

function answered(url: string): Promise<boolean> {
  return new Promise((done) => {
    get(url, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode === 200));
    }).on('error', () => done(false));
  });
}
