/**
 * The one-time move of submissions out of the published content (docs/submissions.md): old
 * `content/submissions/*.md` records are imported into the private store as they were, then
 * removed from the content repository in one commit by the system, whose message holds no
 * submitter data. Runs at every start and does nothing once they are gone; a record already
 * in the store (imported before, maybe reviewed since) is never overwritten.
 */
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Deps } from '../deps.ts';
import { SUBMISSION_ID, type SubmissionRecord } from './store.ts';

/** The folder the old desk committed submissions to. */
const OLD_FOLDER = 'submissions';
export const MIGRATION_MESSAGE = 'Move submissions out of the published content';
/** The same identity the git store commits as (its committer). */
const SYSTEM_AUTHOR = { name: 'Deals catalog', email: 'catalog@localhost' };

/**
 * Move what is left; resolves with how many files left the content repository. Failures are
 * logged, not thrown: the server starts anyway, and the next start tries again.
 * @example await migrateSubmissions(deps)
 */
export function migrateSubmissions(deps: Pick<Deps, 'content' | 'store' | 'submissions' | 'log'>): Promise<number> {
  // In the write queue: no pull or admin write moves the tree while the files are read and removed.
  return deps.content
    .exclusive(async () => {
      const names = (await deps.store.list(OLD_FOLDER)).filter((name) => name.endsWith('.md'));
      if (names.length === 0) return 0;
      // The front-matter parser only when there is something to move: nearly every start has nothing (http/loaded-on-first-use.ts).
      const { parseEntry } = await import('../../src/pipeline/parse.ts');
      const moved: string[] = [];
      let imported = 0;
      for (const name of names) {
        const path = `${OLD_FOLDER}/${name}`;
        const record = oldRecord(path, parseEntry({ path: `content/${path}`, text: (await deps.store.read(path)) ?? '' }).value?.data);
        if (!record) {
          // Left in place, for the owner to look at: better than losing or publishing it further.
          deps.log.warn('submission_migration_skipped', { file: `content/${path}`, reason: 'not a submission record' });
          continue;
        }
        if ((await deps.submissions.store.put(record)).outcome === 'stored') imported += 1;
        moved.push(path);
      }
      if (moved.length === 0) return 0;
      const { commit } = await deps.store.commit(
        moved.map((path) => ({ path, text: null })),
        { message: MIGRATION_MESSAGE, author: SYSTEM_AUTHOR },
      );
      // Git tracks no folders: the emptied one would stay behind on disk.
      await rmdir(join(deps.store.root, OLD_FOLDER)).catch(() => undefined);
      await deps.content.catchUpNow(commit);
      deps.log.info('submissions_migrated', { count: moved.length, imported, commit });
      return moved.length;
    })
    .catch((error: unknown) => {
      deps.log.error('submissions_migration_failed', { error: String((error as Error).cause ?? error) });
      return 0;
    });
}

// --- internal ---

/** An old record file (its front matter, when it has any) as a store record, or undefined when it is not one. */
function oldRecord(path: string, frontMatter: Record<string, unknown> | undefined): SubmissionRecord | undefined {
  const data = frontMatter as Partial<SubmissionRecord> | undefined;
  if (!data || !SUBMISSION_ID.test(data.id ?? '') || `${OLD_FOLDER}/${data.id}.md` !== path) return undefined;
  if (!['pending', 'approved', 'rejected'].includes(data.status ?? '') || typeof data.submittedAt !== 'string') return undefined;
  if (typeof data.company_name !== 'string' || typeof data.redemption_link !== 'string') return undefined;
  return data as SubmissionRecord;
}
