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

/** True when any diagnostic must stop the build. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Stable order for printing: by file, then line, then field. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.field ?? '').localeCompare(b.field ?? ''),
  );
}
