/**
 * Build a content tree into a generated folder as `npm start` does before serving (parse,
 * validate, index, emit), failing the test on any content error.
 */
import { rm } from 'node:fs/promises';
import { expect } from 'vitest';
import type { CatalogData } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { readContent } from '../../src/pipeline/read-content.ts';

export async function buildGenerated(contentDir: string, generatedDir: string, today = new Date().toISOString().slice(0, 10)): Promise<CatalogData> {
  const built = runPipeline(await readContent(contentDir), { today });
  expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (!built.value) throw new Error(`${contentDir} does not build`);
  await rm(generatedDir, { recursive: true, force: true });
  await emitCatalog(generatedDir, built.value);
  return built.value.data;
}
