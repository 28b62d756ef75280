/**
 * Two server processes started at once, as behind a load balancer (the reliability tests of
 * shared state): each from its own git copy of a content fixture, built into its own folder.
 * When one cannot start, the other is stopped and the failure thrown.
 */
import { join } from 'node:path';
import { buildGenerated } from './build-generated.ts';
import { startChildServer, type ChildServer } from './child-server.ts';
import { FIXTURES, gitContentCopy } from './server.ts';

export type InstanceName = 'a' | 'b';

/** Start `a` and `b` together with `start`: both, or neither left running. */
export async function startPair(start: (name: InstanceName) => Promise<ChildServer>): Promise<[ChildServer, ChildServer]> {
  const started = await Promise.allSettled([start('a'), start('b')]);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    throw failed.reason;
  }
  return started.map((s) => (s as PromiseFulfilledResult<ChildServer>).value) as [ChildServer, ChildServer];
}

/** One instance under `work/<name>`: its copy of the `valid` fixture, built, served with `env`. */
export async function startFixtureInstance(work: string, name: InstanceName, env: Record<string, string>): Promise<ChildServer> {
  const contentDir = await gitContentCopy(join(FIXTURES, 'valid'), join(work, name));
  const generatedDir = join(work, name, 'generated');
  await buildGenerated(contentDir, generatedDir);
  return startChildServer({ contentDir, generatedDir, dataDir: join(work, name, 'data'), env });
}
