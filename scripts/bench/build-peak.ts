/**
 * The benchmark's content build, in a process of its own so its peak memory is the build's:
 * builds the content the environment names (CONTENT_DIR, GENERATED_DIR) and prints
 * `{ "ms": …, "peakMb": … }` on stdout (peak = the process's maximum resident set).
 * Usage: node scripts/bench/build-peak.ts
 */
import { loadConfig } from '../../functions/config.ts';
import { buildContent } from '../_build-steps.ts';

const started = performance.now();
if (!(await buildContent(loadConfig(), () => undefined))) {
  console.error('build failed');
  process.exit(1);
}
const ms = performance.now() - started;
console.log(JSON.stringify({ ms, peakMb: process.resourceUsage().maxRSS / 1024 }));
