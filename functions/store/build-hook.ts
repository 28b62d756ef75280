/**
 * The platform's rebuild after a content write (NETLIFY_BUILD_HOOK_URL): a function serves a
 * write at once, but the static pages are the platform's build of the content, so every commit
 * the store pushes is followed by one POST to the build hook. In the background (the adapter
 * hands `settled()` to the platform's `waitUntil`), logged when it fails, never failing the
 * write: the commit is already on the git host, and the next write or a push asks again.
 */
import { postToWebhook } from '../notify/webhook.ts';
import type { Logger } from '../ops/log.ts';
import type { ContentStore } from './content-store.ts';

/** The longest the hook may take to answer. */
const HOOK_TIMEOUT_MS = 10_000;

export class BuildHook {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly url: string;
  private readonly log: Logger;

  constructor(url: string, log: Logger) {
    this.url = url;
    this.log = log;
  }

  /** Ask for a rebuild of `commit`; the body (Netlify's INCOMING_HOOK_BODY) names it. Never throws. */
  trigger(commit: string): void {
    // Never the URL in a log line: its id is the hook's only credential.
    const sent = postToWebhook(this.url, `content commit ${commit}`, HOOK_TIMEOUT_MS).then(
      () => this.log.info('build_hook_sent', { commit }),
      (error: unknown) => this.log.error('build_hook_failed', { commit, error: error instanceof Error ? error.message : String(error) }),
    );
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  /** Resolves once every hook call under way has finished (for the platform's `waitUntil`). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }
}

/**
 * The store, with the build hook asked after each commit it made (and pushed: `commit`
 * resolves only once the git host took it).
 * @example const store = withBuildHook(await openContentStore(config), new BuildHook(config.buildHookUrl, log))
 */
export function withBuildHook(store: ContentStore, hook: BuildHook): ContentStore {
  return {
    get root() {
      return store.root;
    },
    read: (path) => store.read(path),
    list: (folder) => store.list(folder),
    commit: async (changes, info) => {
      const result = await store.commit(changes, info);
      hook.trigger(result.commit);
      return result;
    },
    status: () => store.status(),
    pull: () => store.pull(),
    changedPaths: (from, to) => store.changedPaths(from, to),
    history: (path, page) => store.history(path, page),
    readAt: (versions) => store.readAt(versions),
    log: (head, range) => store.log(head, range),
    commitFiles: (commits) => store.commitFiles(commits),
    readBlobs: (ids) => store.readBlobs(ids),
  };
}
