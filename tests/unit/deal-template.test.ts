/**
 * The deal template editors copy (docs/templates/deal.md, docs/editing-content.md "Adding a
 * deal in git") builds as it is, beside the starter catalog: a new editor starts from a file
 * that passes `npm run check`, not one that fails before they change anything.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';

const ROOT = join(import.meta.dirname, '..', '..');

test('the template, copied into the starter catalog as the docs say, is a valid deal', async () => {
  const work = await mkdtemp(join(tmpdir(), 'deals-template-'));
  try {
    await cp(join(ROOT, 'content'), join(work, 'content'), { recursive: true });
    await cp(join(ROOT, 'docs', 'templates', 'deal.md'), join(work, 'content', 'deals', 'acme-cloud-credits.md'));
    const built = runPipeline(await readContent(join(work, 'content')), { today: '2026-11-25' });
    expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(built.value?.data.deals.find((d) => d.slug === 'acme-cloud-credits')).toMatchObject({
      id: 'd-acme-cloud-credits',
      title: 'Acme Cloud credits for startups',
      category: 'cloud-credits',
      status: 'active',
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
