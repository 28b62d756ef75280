/**
 * `npm run check`: validate content without building. One line per problem (file:line field:
 * what is wrong and what is allowed); exits 1 when any is an error. Warnings do not fail.
 */
import { settings } from './_settings.ts';
import { formatDiagnostic, hasErrors, sortDiagnostics } from '../src/pipeline/diagnostics.ts';
import { runPipelineOnCores } from '../src/pipeline/build.ts';
import { readContent } from '../src/pipeline/read-content.ts';
import { today } from './_build-steps.ts';

const contentDir = process.argv[2] ?? settings().contentDir;
const sources = await readContent(contentDir);
const { diagnostics } = await runPipelineOnCores(sources, { today: today(), index: false });
for (const d of sortDiagnostics(diagnostics)) console.log(formatDiagnostic(d));
const errors = diagnostics.filter((d) => d.severity === 'error').length;
const warnings = diagnostics.length - errors;
console.log(`checked ${sources.deals.length} deals and ${sources.startups.length} startups: ${errors} error(s), ${warnings} warning(s)`);
// Not process.exit: output to a pipe is written asynchronously, and exiting would cut it short.
process.exitCode = hasErrors(diagnostics) ? 1 : 0;
