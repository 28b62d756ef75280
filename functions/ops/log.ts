/** Structured JSON log lines on stderr, one object per event. */

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

/** A logger writing JSON lines; `sink` is replaceable for tests. */
export function createLogger(sink: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Logger {
  const write = (level: string, event: string, fields: Record<string, unknown> = {}) => sink(JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }));
  return {
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
  };
}
