/**
 * The content store the settings name: over HTTPS when CONTENT_GIT_URL is set (no work tree
 * needed: serverless), otherwise the git repository around CONTENT_DIR, pushing to
 * CONTENT_REMOTE when set. isomorphic-git is loaded only for the first.
 */
import type { Config } from '../config.ts';
import type { ContentStore } from './content-store.ts';
import { GitStore } from './git-store.ts';

/** @example const store = await openContentStore(loadConfig()) */
export async function openContentStore(config: Pick<Config, 'contentDir' | 'contentRemote' | 'contentBranch' | 'contentGit'>): Promise<ContentStore> {
  if (config.contentGit) {
    const { HttpGitStore } = await import('./http-git-store.ts');
    return HttpGitStore.open({ ...config.contentGit, branch: config.contentBranch });
  }
  return GitStore.open(config.contentDir, config.contentRemote ? { name: config.contentRemote, branch: config.contentBranch } : undefined);
}
