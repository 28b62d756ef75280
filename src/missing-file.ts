/**
 * "Not there" as an answer rather than a failure: a file or folder that does not exist yet
 * (ENOENT) reads as a fallback, any other error is thrown on. It imports nothing, so the serve
 * process can load it before the server's modules (functions/reads/catalog-files.ts).
 */

/** Whether `error` says the file or folder does not exist. */
export function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null | undefined)?.code === 'ENOENT';
}

/**
 * A `catch` handler: `fallback` when the file or folder does not exist, any other error thrown on.
 * @example const text = await readFile(path, 'utf8').catch(ifMissing(undefined));
 * @example const names = await readdir(folder).catch(ifMissing<string[]>([]));
 */
export function ifMissing<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (isMissing(error)) return fallback;
    throw error;
  };
}
