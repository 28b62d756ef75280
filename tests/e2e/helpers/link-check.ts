/**
 * A real link check for the e2e site: `npm run verify-links` over its content, every host
 * answered by the local servers of tests/helpers/links-support.ts (reached with `--resolve`),
 * each link `ok` unless its host is planted with another behaviour. The report goes where the
 * server reads it (its DATA_DIR).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentLinks, runVerifyLinks, startLinkServers, type Behaviour } from '../../helpers/links-support.ts';

export async function plantLinkReport(contentDir: string, dataDir: string, byHost: Record<string, Behaviour>): Promise<void> {
  const certificates = await mkdtemp(join(tmpdir(), 'e2e-links-'));
  const plan = new Map((await contentLinks(contentDir)).map((link) => [link.url, byHost[new URL(link.url).hostname] ?? 'ok'] as const));
  const servers = await startLinkServers(certificates, plan);
  try {
    const run = await runVerifyLinks([contentDir, '--out', dataDir, '--timeout', '5', ...servers.resolveArgs], servers.env);
    if (run.status !== 0) throw new Error(`verify-links exited ${run.status}: ${run.stderr}`);
  } finally {
    await servers.stop();
    await rm(certificates, { recursive: true, force: true });
  }
}
