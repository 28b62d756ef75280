/**
 * The build's worker threads (src/pipeline/check-in-workers.ts) change how long a big build
 * takes, never what it makes: the same records in the same order, the same search indexes, and
 * the same diagnostics in the same order as `runPipeline` in one thread, over every fixture
 * scenario, the starter content, and a generated catalog of several batches with a problem of
 * each kind planted in it (some in different batches).
 */
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { pipelineWorkers, runPipeline, runPipelineInWorkers, type BuiltCatalog } from '../../src/pipeline/build.ts';
import { readContent, type ContentFiles } from '../../src/pipeline/read-content.ts';
import { writeSearchIndex } from '../../src/pipeline/emit.ts';
import type { StageResult } from '../../src/pipeline/diagnostics.ts';
import { FIXTURES } from '../helpers/server.ts';
import { lunrJsonText } from '../helpers/lunr-reference.ts';

const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
const TODAY = '2026-11-21';
const scratch = mkdtempSync(join(tmpdir(), 'pipeline-workers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What a build made, in comparable form: the lunr JSON as text, the postings' typed arrays as arrays. */
function comparable(result: StageResult<BuiltCatalog | undefined>) {
  const value = result.value;
  return {
    diagnostics: result.diagnostics,
    data: value?.data,
    lunr: value && { deals: lunrJsonText(value.postings.deals, value.termIndexes.deals), startups: lunrJsonText(value.postings.startups, value.termIndexes.startups) },
    postings: value && JSON.stringify(value.postings, (_key, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v)),
  };
}

async function bothWays(contentDir: string, workers = 2) {
  const sources = await readContent(contentDir);
  const alone = comparable(runPipeline(sources, { today: TODAY }));
  const spread = comparable(await runPipelineInWorkers(await readContent(contentDir), { today: TODAY }, workers));
  return { alone, spread };
}

/** A script that builds `content` in worker threads and prints `report` (an expression over `built`) as JSON: for a build in a process of its own. */
function workerBuildScript(name: string, content: string, report: string): string {
  const script = join(scratch, `${name}.ts`);
  writeFileSync(
    script,
    [
      `import { runPipelineInWorkers } from ${JSON.stringify(join(PROJECT_ROOT, 'src', 'pipeline', 'build.ts'))};`,
      `import { readContent } from ${JSON.stringify(join(PROJECT_ROOT, 'src', 'pipeline', 'read-content.ts'))};`,
      `const built = await runPipelineInWorkers(await readContent(${JSON.stringify(content)}), { today: '${TODAY}' }, 2);`,
      `console.log(JSON.stringify(${report}));`,
    ].join('\n'),
  );
  return script;
}

describe('checking files in worker threads', () => {
  const scenarios = readdirSync(FIXTURES);
  test.each(scenarios)('fixture %s: the same catalog and diagnostics as in one thread', async (scenario) => {
    const { alone, spread } = await bothWays(join(FIXTURES, scenario));
    expect(spread).toEqual(alone);
  });

  test('the starter content: the same catalog, built', async () => {
    const { alone, spread } = await bothWays(join(PROJECT_ROOT, 'content'), 3);
    expect(alone.data?.deals.length).toBeGreaterThan(50);
    expect(spread).toEqual(alone);
  });

  test('a generated catalog of several batches with planted problems: the same records and problems, in the same order', async () => {
    const content = join(scratch, 'generated');
    execFileSync(process.execPath, ['scripts/generate.ts', '--deals', '1300', '--startups', '700', '--out', content, '--seed', '11'], { cwd: PROJECT_ROOT, stdio: 'ignore' });
    const deals = readdirSync(join(content, 'deals')).sort();
    const startups = readdirSync(join(content, 'startups')).sort();
    const deal = (i: number) => join(content, 'deals', deals[i] as string);
    // A file with no front matter, one with bad YAML, one with an unknown field and an unknown category,
    // an id repeated across batches (files 3 and 1,100), a startup with an unknown source.
    writeFileSync(deal(10), 'no front matter here\n');
    writeFileSync(deal(600), '---\ntitle: [unclosed\n---\nBody\n');
    writeFileSync(deal(700), readFileSync(deal(700), 'utf8').replace(/^category: .*$/m, 'category: sass-discounts\ncolour: blue'));
    const idOf = (path: string) => /^id: (.*)$/m.exec(readFileSync(path, 'utf8'))?.[1] as string;
    writeFileSync(deal(1100), readFileSync(deal(1100), 'utf8').replace(/^id: .*$/m, `id: ${idOf(deal(3))}`));
    const startup = join(content, 'startups', startups[650] as string);
    writeFileSync(startup, readFileSync(startup, 'utf8').replace(/^source: .*$/m, 'source: aquire'));
    appendFileSync(join(content, 'deals', 'zz-empty.md'), '---\n---\n');

    const { alone, spread } = await bothWays(content);
    const codes = new Set(alone.diagnostics.map((d) => d.code));
    for (const code of ['missing_front_matter', 'invalid_yaml', 'unrecognized_keys', 'unknown_category', 'duplicate_id', 'unknown_source', 'invalid_type']) expect(codes).toContain(code);
    expect(spread.diagnostics).toEqual(alone.diagnostics);
    expect(spread).toEqual(alone);
  });

  test('a content folder that builds: records, indexes and lunr JSON alike, over more batches than workers', async () => {
    const content = join(scratch, 'clean');
    execFileSync(process.execPath, ['scripts/generate.ts', '--deals', '1600', '--startups', '900', '--out', content, '--seed', '5'], { cwd: PROJECT_ROOT, stdio: 'ignore' });
    // Drafts among the deals, and deals saying they are none: the deals' index is built in a
    // worker from the published deals, which must come in the catalog's order.
    const names = readdirSync(join(content, 'deals')).sort();
    names.forEach((name, i) => {
      const flag = i % 37 === 0 ? 'draft: true' : i % 41 === 0 ? 'draft: false' : undefined;
      const path = join(content, 'deals', name);
      if (flag) writeFileSync(path, readFileSync(path, 'utf8').replace(/^---\n/, `---\n${flag}\n`));
    });
    const { alone, spread } = await bothWays(content, 2);
    expect(alone.data?.deals.length).toBeGreaterThan(1000);
    expect(alone.data?.drafts?.deals.length).toBeGreaterThan(40);
    expect(alone.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(spread).toEqual(alone);

    // search-index.json: the deals' lunr JSON written by a worker into the file, the startups'
    // copied after it, gives the bytes written one after the other in this thread.
    const built = runPipeline(await readContent(content), { today: TODAY }).value as BuiltCatalog;
    const [here, inWorker] = [join(scratch, 'search-index-here.json'), join(scratch, 'search-index-worker.json')];
    await writeSearchIndex(here, built, false);
    await writeSearchIndex(inWorker, built, true);
    const text = readFileSync(here, 'utf8');
    expect(readFileSync(inWorker, 'utf8')).toBe(text);
    expect(text).toBe(`{"deals":${alone.lunr?.deals},"startups":${alone.lunr?.startups}}`);
    expect(readdirSync(scratch).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('search-index.json in a worker: a failed worker fails the write and leaves no file, nor any temp file', async () => {
    const built = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: TODAY }).value as BuiltCatalog;
    const path = join(scratch, 'no-such-folder', 'search-index.json');
    await expect(writeSearchIndex(path, built, true)).rejects.toThrow();
    const folder = join(scratch, 'failing-worker');
    mkdirSync(folder);
    // Postings that are not a layout (no refs): the worker throws, this thread's part is written.
    const broken = { ...built, postings: { ...built.postings, deals: { ...built.postings.deals, refs: null as unknown as string[] } } };
    await expect(writeSearchIndex(join(folder, 'search-index.json'), broken, true)).rejects.toThrow(/lunr JSON worker|null/);
    expect(readdirSync(folder)).toEqual([]);
  });

  test("the deals' index worker is heard when it finishes before this thread (more startups than deals), in a process of its own", async () => {
    // The worker posts its index and exits; with this thread still indexing the startups, the
    // exit was seen before the message and every such build failed. Run in a plain Node process:
    // under the test runner's own threads the events came in the other order.
    const content = join(scratch, 'more-startups');
    execFileSync(process.execPath, ['scripts/generate.ts', '--deals', '3000', '--startups', '8000', '--out', content, '--seed', '17'], { cwd: PROJECT_ROOT, stdio: 'ignore' });
    const script = workerBuildScript(
      'more-startups-build',
      content,
      '{ deals: built.value?.postings.deals.refs.length, startups: built.value?.postings.startups.refs.length, sameOrder: built.value?.postings.deals.refs.every((id, doc) => id === built.value?.data.deals[doc]?.id) }',
    );
    const output = execFileSync(process.execPath, [script], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ deals: 3000, startups: 8000, sameOrder: true });
  });

  test('a file that cannot be read fails the build, as it does in one thread', async () => {
    const content = join(scratch, 'unreadable');
    execFileSync(process.execPath, ['scripts/generate.ts', '--deals', '3000', '--startups', '10', '--out', content, '--seed', '3'], { cwd: PROJECT_ROOT, stdio: 'ignore' });
    const sources = await readContent(content);
    const names = readdirSync(join(content, 'deals')).sort();
    // In the sixth batch: read when an answer comes back, not among the batches sent at first.
    rmSync(join(content, 'deals', names[2600] as string));
    await expect(runPipelineInWorkers(sources, { today: TODAY }, 2)).rejects.toThrow(/ENOENT/);
    expect(() => runPipeline(sources, { today: TODAY })).toThrow(/ENOENT/);
  });
});

describe('a worker that fails', () => {
  test('rejects the build instead of hanging, as one thread throws', async () => {
    const sources = await readContent(join(FIXTURES, 'valid'));
    const good = [...sources.deals];
    // Not text: parsing it throws inside the worker, an error the worker does not answer.
    const broken = { path: 'valid/deals/broken.md', text: 42 as unknown as string };
    const files = [...Array.from({ length: 600 }, (_, i) => good[i % good.length] as (typeof good)[number]), broken];
    const deals: ContentFiles = { length: files.length, [Symbol.iterator]: () => files[Symbol.iterator]() };
    await expect(runPipelineInWorkers({ ...sources, deals }, { today: TODAY }, 2)).rejects.toThrow(TypeError);
    expect(() => runPipeline({ ...sources, deals }, { today: TODAY })).toThrow(TypeError);
  });
});

describe('under node --watch (as `npm run dev` runs the build)', () => {
  test("Node's own messages from the workers are not taken for answers: the whole catalog is checked", async () => {
    // Under --watch a worker posts a message per module it imports on its default channel;
    // answers read from there gave an empty catalog that "built".
    const content = join(scratch, 'watched');
    execFileSync(process.execPath, ['scripts/generate.ts', '--deals', '1200', '--startups', '300', '--out', content, '--seed', '13'], { cwd: PROJECT_ROOT, stdio: 'ignore' });
    const script = workerBuildScript('watched-build', content, '{ deals: built.value?.data.deals.length, startups: built.value?.data.startups.length, diagnostics: built.diagnostics.length }');
    const child = spawn(process.execPath, [`--watch-path=${scratch}`, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /^\{.*\}$/m.exec(out);
          if (found) resolve(found[0]);
        });
        child.on('exit', () => reject(new Error(`exited before answering: ${out}`)));
      });
      const alone = runPipeline(await readContent(content), { today: TODAY });
      expect(JSON.parse(line)).toEqual({ deals: alone.value?.data.deals.length, startups: alone.value?.data.startups.length, diagnostics: alone.diagnostics.length });
      expect(alone.value?.data.deals.length).toBeGreaterThan(1000);
    } finally {
      child.kill();
    }
  });
});

describe('pipelineWorkers', () => {
  const files = (length: number): ContentFiles => ({ length, [Symbol.iterator]: () => [][Symbol.iterator]() });
  const sources = (deals: number, startups: number) => ({ root: 'content', deals: files(deals), startups: files(startups), categories: undefined, site: undefined });
  test('none for a small catalog or a single core; one per core, at most four, for a big one', () => {
    expect(pipelineWorkers(sources(63, 40), 8)).toBe(0);
    expect(pipelineWorkers(sources(50_000, 100_000), 1)).toBe(0);
    expect(pipelineWorkers(sources(50_000, 100_000), 2)).toBe(2);
    expect(pipelineWorkers(sources(3_000, 2_000), 16)).toBe(4);
  });
});
