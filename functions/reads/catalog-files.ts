/**
 * The files of a build that the server loads (`generated/`), read as they are, not yet parsed.
 * The serve process starts reading them before it imports the server's modules
 * (scripts/_serve-process.ts), so that the disk and the thread pool work while the main thread
 * compiles: at 50,000 deals and 100,000 startups they are 170 MB (docs/performance.md,
 * fifteenth sitting). For that reason it imports only Node's own and two modules that import
 * nothing (the file names, the ENOENT helper).
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CATALOG_FILE, DRAFTS_FILE, RECORD_SPANS_FILE, SEARCH_POSTINGS_FILE, SEARCH_POSTINGS_JSON_FILE } from '../../src/pipeline/generated-files.ts';
import { ifMissing } from '../../src/missing-file.ts';

export interface CatalogFiles {
  catalog: Buffer;
  /** `record-spans.json`; none in a build from before spans existed (the records are then serialised at load). */
  spans: string | undefined;
  /** The binary postings, or the JSON postings of a build from before them. */
  postings: { binary: Buffer } | { json: string };
  /** `drafts.json`; none in a build from before drafts existed. */
  drafts: string | undefined;
}

/**
 * Read a build's files. A missing `catalog.json` (or postings) rejects with the read's error.
 * @example const files = readCatalogFiles('generated')
 */
export function readCatalogFiles(generatedDir: string): Promise<CatalogFiles> {
  const read = async (): Promise<CatalogFiles> => {
    const [catalog, spans, postings, drafts] = await Promise.all([
      readWhole(join(generatedDir, CATALOG_FILE)),
      readIfThere(join(generatedDir, RECORD_SPANS_FILE)),
      readPostings(generatedDir),
      readIfThere(join(generatedDir, DRAFTS_FILE)),
    ]);
    return { catalog, spans, postings, drafts };
  };
  const files = read();
  // Read ahead of the caller, which awaits it later: a failure is not unhandled meanwhile.
  files.catch(() => undefined);
  return files;
}

// --- internal ---

async function readPostings(generatedDir: string): Promise<CatalogFiles['postings']> {
  const binary = await readWhole(join(generatedDir, SEARCH_POSTINGS_FILE)).catch(ifMissing(undefined));
  return binary ? { binary } : { json: await readFile(join(generatedDir, SEARCH_POSTINGS_JSON_FILE), 'utf8') };
}

/**
 * A file's bytes in one read where the system allows: a single job on the thread pool, which
 * goes on while the main thread is busy. `readFile` reads in 512 KiB steps, each started from
 * the main thread, so a big file waited for the module loading it was meant to overlap.
 */
async function readWhole(path: string): Promise<Buffer> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const bytes = Buffer.allocUnsafeSlow(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await file.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } finally {
    await file.close();
  }
}

async function readIfThere(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(ifMissing(undefined));
}
