/**
 * Content problems as data (Velite-style diagnostics): every stage collects them, `check`
 * prints them all, and the build fails once if any is an error.
 */

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable code, such as `invalid_value` or `duplicate_slug`. */
  code: string;
  /** Path relative to the content root's parent, such as `content/deals/aws.md`. */
  file: string;
  /** 1-based line of the offending field, when known. */
  line?: number;
  /** Field path, such as `category` or `eligibility.2`. */
  field?: string;
  message: string;
}

/** Result of one pipeline stage: the value it produced and what it found wrong. */
export interface StageResult<T> {
  value: T;
  diagnostics: Diagnostic[];
}

/**
 * One line per problem: `content/deals/acme.md:4 category: expected one of ..., got `sass``.
 * @example formatDiagnostic({ severity: 'error', code: 'x', file: 'a.md', line: 2, field: 'title', message: 'required' })
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line ? `${d.file}:${d.line}` : d.file;
  const field = d.field ? ` ${d.field}:` : '';
  const level = d.severity === 'warning' ? ' warning:' : '';
  return `${where}${level}${field} ${d.message}`;
}

/**
 * Longest user value a diagnostic prints. Security review, issue 11: a huge value (a 1 MB
 * key, a tag, a list of thousands) must not make a huge message in `check`, the build log
 * or /api/v1/health.
 */
export const MAX_SHOWN_LENGTH = 80;

/**
 * Text cut to `max` characters, an ellipsis marking the cut.
 * @example cut('a'.repeat(100)) // 'aaa…' (80 characters)
 */
export function cut(text: string, max = MAX_SHOWN_LENGTH): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A user value as diagnostics print it: in backticks, cut; `nothing` for a missing value.
 * @example shown('sass') // '`sass`'
 */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  // Linear in the value's size: parsed content is a tree (parse.ts refuses YAML aliases).
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return `\`${cut(text)}\``;
}

/**
 * Several values as `shown` prints them, at most `max` of them, then how many more.
 * @example shownList(['saas', 'cloud']) // '`saas` | `cloud`'
 */
export function shownList(values: readonly unknown[], separator = ' | ', max = 20): string {
  const listed = values.slice(0, max).map(shown).join(separator);
  return values.length > max ? `${listed}${separator}… (${values.length - max} more)` : listed;
}

/** True when any diagnostic must stop the build. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Stable order for printing: by file, then line, then field. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.field ?? '').localeCompare(b.field ?? ''));
}
