/**
 * The command line of `npm run verify-links`, checked whole: a wrong option is a usage error
 * (exit 2) naming it, before any link is fetched.
 */
import { parseArgs } from 'node:util';
import { VERDICTS, type Verdict } from '../functions/links/report.ts';
import { parseResolve, type ResolveMap } from '../functions/links/resolve-map.ts';

export interface LinkOptions {
  /** The content folder; the configured one (CONTENT_DIR) when not given. */
  contentDir: string | undefined;
  /** Where the reports go; by default where the server reads them (LINK_REPORT, else DATA_DIR). */
  out: string | undefined;
  /** Only these records' links (by slug). */
  only: ReadonlySet<string> | undefined;
  concurrency: number;
  perHost: number;
  timeoutMs: number;
  retries: number;
  resolve: ResolveMap;
  /** Verdicts that make the run exit 1 (none by default: findings are not failures). */
  failOn: ReadonlySet<Verdict>;
  help: boolean;
}

export const USAGE = `usage: npm run verify-links -- [contentDir] [options]
  --out <dir>            where link-health.json and link-health.md go (default: LINK_REPORT's
                         folder, else DATA_DIR, .data, where the admin reads them)
  --only <slug,...>      check only these deals' and startups' links
  --concurrency <n>      requests in flight in all (default 8)
  --per-host <n>         requests in flight to one host (default 2)
  --timeout <seconds>    per request, body included (default 10)
  --retries <n>          tries again after a timeout, 429 or 5xx, with backoff (default 2)
  --resolve <host:port:address[:port]>
                         connect there instead of asking DNS, keeping the Host header and TLS
                         name (as curl's --resolve; * for every host); may be repeated
  --fail-on <verdict,...>  exit 1 when a link gets one of these (${VERDICTS.join(', ')})`;

/** A command line that cannot be run as given. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * @throws UsageError naming the option that is wrong
 * @example parseLinkOptions(['--timeout', '2', '--fail-on', 'gone,tls']).timeoutMs // 2000
 */
export function parseLinkOptions(argv: readonly string[]): LinkOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        only: { type: 'string' },
        concurrency: { type: 'string', default: '8' },
        'per-host': { type: 'string', default: '2' },
        timeout: { type: 'string', default: '10' },
        retries: { type: 'string', default: '2' },
        resolve: { type: 'string', multiple: true, default: [] },
        'fail-on': { type: 'string', default: '' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`one content folder at most, got ${positionals.join(' ')}`);
  const failOn = list(values['fail-on']);
  const unknown = failOn.filter((verdict) => !(VERDICTS as readonly string[]).includes(verdict));
  if (unknown.length > 0) throw new UsageError(`--fail-on ${unknown.join(',')}: expected verdicts among ${VERDICTS.join(', ')}`);
  let resolve: ResolveMap;
  try {
    resolve = parseResolve(values.resolve);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const only = values.only === undefined ? undefined : new Set(list(values.only));
  if (only?.size === 0) throw new UsageError('--only: expected slugs, such as --only aws-activate-founders,stripe-atlas');
  return {
    contentDir: positionals[0],
    out: values.out,
    only,
    concurrency: number('--concurrency', values.concurrency, 1, 64, true),
    perHost: number('--per-host', values['per-host'], 1, 16, true),
    timeoutMs: Math.round(number('--timeout', values.timeout, 0.1, 300, false) * 1000),
    retries: number('--retries', values.retries, 0, 10, true),
    resolve,
    failOn: new Set(failOn as Verdict[]),
    help: values.help,
  };
}

// --- internal ---

function list(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function number(option: string, text: string, min: number, max: number, whole: boolean): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max || (whole && !Number.isInteger(value))) {
    throw new UsageError(`${option} ${text}: expected ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}`);
  }
  return value;
}
