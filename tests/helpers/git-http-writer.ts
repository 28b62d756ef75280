/**
 * One writer process for the HTTPS content store's concurrency test: opens its own store
 * (its own clone) on the remote named in argv[2] (JSON: `{ url, token, writes: [{ path, text }] }`),
 * waits for "go" on stdin so every process starts together, makes each write as one commit and
 * prints one JSON line per write: `{ path, commit, integrated }` or `{ path, error }` (the error's class name).
 */
import { HttpGitStore } from '../../functions/store/http-git-store.ts';

const { url, token, name, writes } = JSON.parse(process.argv[2] ?? '{}') as { url: string; token: string; name: string; writes: { path: string; text: string }[] };
// The test checks that no write is lost under contention, not how fast: a loaded CI machine (other
// test files in parallel) made 4 writers outlast the 8 s a request keeps retrying (ci8, 2 of 20).
const store = await HttpGitStore.open({ url, token, retryMs: 60_000 });
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
for (const { path, text } of writes) {
  try {
    const { commit, integrated } = await store.commit([{ path, text }], { message: `${name} writes ${path}`, author: { name, email: `${name}@example.com` } });
    process.stdout.write(`${JSON.stringify({ path, commit, integrated })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ path, error: (error as Error).name, message: (error as Error).message })}\n`);
  }
}
await store.dispose();
process.exit(0);
