/**
 * `npm run audit`: fail on any high or critical advisory in the installed dependencies
 * (`npm audit`), and on any audit that breaks. Only when the registry's advisory service cannot
 * be reached (a network failure, or a mirror or proxy that does not serve it) say NOT CHECKED
 * plainly and exit 0: the check did not run, which is not a pass.
 */
import { spawnSync } from 'node:child_process';
import { auditVerdict, type AuditReport } from './_audit-report.ts';

const result = spawnSync('npm', ['audit', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
let report: AuditReport;
try {
  report = JSON.parse(result.stdout || '{}') as AuditReport;
} catch {
  console.error(`npm audit gave no report: ${result.stderr.trim().split('\n').at(-1) ?? ''}`);
  process.exit(1);
}
const verdict = auditVerdict(report);
if (verdict.kind === 'fail') {
  console.error(verdict.message);
  process.exit(1);
}
console.log(verdict.message);
