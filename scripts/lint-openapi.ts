/**
 * `npm run lint:openapi`: the OpenAPI document the server serves, linted by Redocly
 * (`redocly.yaml`: the recommended rules) and Spectral (`.spectral.yaml`: spectral:oas).
 *
 * The document comes from the function `/openapi.json` answers with (functions/docs/openapi.ts),
 * over the catalog built from CONTENT_DIR (default `content/`) and the route lifecycle table in
 * force (API_LIFECYCLE; the environment, or `.env`, as for `npm start`); a second copy with one route deprecated covers the parts only a
 * deprecation adds. Both are written to a temporary directory and linted there. Exits 1 on any
 * error or warning: a rule that should not apply is turned off in the linter's config, with the
 * reason beside it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Catalog } from '../src/catalog/catalog.ts';
import { openApiDocument } from '../functions/docs/openapi.ts';
import { API_ROUTES } from '../functions/http/routes.ts';
import { lifecycleTable, type RouteLifecycle } from '../functions/http/lifecycle.ts';
import { buildCatalog } from './_build-steps.ts';
import { settings } from './_settings.ts';

const ROOT = join(import.meta.dirname, '..');
/** A deprecation as an operator would announce it (180 days of notice). */
const SAMPLE_DEPRECATION: RouteLifecycle = { path: '/startups', deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2027-07-01T00:00:00Z', successor: '/api/v2/startups' };

interface Problem {
  severity: 'error' | 'warning' | 'info' | 'hint';
  rule: string;
  where: string;
  message: string;
}

const config = settings();
let catalog: Catalog;
try {
  catalog = await buildCatalog(config.contentDir);
} catch (error) {
  console.error(`lint:openapi: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const served = lifecycleTable(config.apiLifecycle);
const documents = [
  { name: 'openapi.json', lifecycle: served },
  { name: 'openapi-deprecated-route.json', lifecycle: new Map([...served, [SAMPLE_DEPRECATION.path, served.get(SAMPLE_DEPRECATION.path) ?? SAMPLE_DEPRECATION]]) },
];

const dir = mkdtempSync(join(tmpdir(), 'lint-openapi-'));
let failed = false;
try {
  for (const { name, lifecycle } of documents) {
    const file = join(dir, name);
    writeFileSync(file, `${JSON.stringify(openApiDocument(catalog, lifecycle, API_ROUTES), null, 2)}\n`);
    for (const [linter, problems] of [
      ['redocly', redocly(file)],
      ['spectral', spectral(file)],
    ] as const) {
      for (const p of problems) console.log(`${name}: ${linter} ${p.severity} ${p.rule} at ${p.where}: ${p.message}`);
      const count = (severity: Problem['severity']) => problems.filter((p) => p.severity === severity).length;
      console.log(`${name}: ${linter}: ${count('error')} error(s), ${count('warning')} warning(s), ${count('info') + count('hint')} note(s)`);
      if (count('error') + count('warning') > 0) failed = true;
    }
  }
} catch (error) {
  console.error(`lint:openapi: ${error instanceof Error ? error.message : String(error)}`);
  failed = true;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

// --- internal ---

/** Redocly CLI's problems for one file (its JSON report). */
function redocly(file: string): Problem[] {
  const result = run('@redocly/cli', ['lint', '--config', join(ROOT, 'redocly.yaml'), '--lint-config', 'error', '--format', 'json', '--max-problems', '10000', file]);
  const report = parseReport<{ problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[] }>('redocly', result);
  return report.problems.map((p) => ({ severity: p.severity === 'error' ? 'error' : 'warning', rule: p.ruleId, where: p.location[0]?.pointer ?? '#', message: p.message }));
}

/** Spectral's problems for one file (its JSON report; severity 0 error, 1 warning, 2 info, 3 hint). */
function spectral(file: string): Problem[] {
  const result = run('@stoplight/spectral-cli', ['lint', '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet', '--fail-severity', 'hint', file]);
  const report = parseReport<{ code: string; severity: number; message: string; path: string[] }[]>('spectral', result);
  const severities = ['error', 'warning', 'info', 'hint'] as const;
  return report.map((p) => ({ severity: severities[p.severity] ?? 'error', rule: p.code, where: `#/${p.path.join('/')}`, message: p.message }));
}

/** Run a package's command-line entry with this Node (its `bin`), without telemetry or update checks. */
function run(pkg: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : (Object.values(manifest.bin)[0] as string);
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', pkg, bin), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** A linter's JSON report, or a failure that says what the linter printed instead. */
function parseReport<T>(linter: string, result: { status: number | null; stdout: string; stderr: string }): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`${linter} gave no report (exit ${result.status}):\n${result.stderr}${result.stdout}`);
  }
}
