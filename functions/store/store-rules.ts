/**
 * What every content store shares, whichever way it reaches git (git-store.ts through the git
 * command, http-git-store.ts through isomorphic-git over HTTPS): who commits, what a commit's
 * message and author may hold, how often a rejected push is retried, and how the content
 * folder on disk is read.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertSafePath, type CommitInfo } from './content-store.ts';
import { ifMissing } from '../../src/missing-file.ts';

/** The committer of every commit the store makes (the author is the admin): how the history tells them from hand commits. */
export const STORE_COMMITTER = { name: 'Deals catalog', email: 'catalog@localhost' };
/** How often a rejected push is rebased and tried again before the write gives up. */
export const PUSH_ATTEMPTS = 12;

/** A random pause, growing with each attempt, so instances racing for the branch fall out of step. */
export function pushPause(attempt: number): Promise<void> {
  return attempt > 1 ? new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt)) : Promise.resolve();
}

/** Longest commit subject kept; longer ones end in `…`. */
const MAX_MESSAGE = 200;
/** Longest author name or e-mail kept. */
const MAX_AUTHOR = 100;
/** Line breaks (CR, LF, NEL, U+2028/9) and every other control character. */
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;

/**
 * Commit metadata as one line each: a message with a line break could carry a trailer
 * (`Co-authored-by:`) or a body, an author with `<`, `>` or a newline a second identity
 * (SECURITY.md). Applied to every commit, whoever builds the message.
 */
export function safeCommitInfo(info: CommitInfo): CommitInfo {
  const line = (text: string) => text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  const message = line(info.message) || 'Content change';
  return {
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1).trimEnd()}…` : message,
    author: {
      name: line(info.author.name.replace(/[<>]/g, '')).slice(0, MAX_AUTHOR),
      email: info.author.email
        .replace(CONTROL, '')
        .replace(/[<>\s]/g, '')
        .slice(0, MAX_AUTHOR),
    },
  };
}

/** The author of a commit whose info went through `safeCommitInfo`, with the defaults for empty fields. */
export function authorOf(info: CommitInfo): { name: string; email: string } {
  return { name: info.author.name || 'Anonymous', email: info.author.email || 'unknown@localhost' };
}

/** A file of the content folder `root` (path checked), or undefined when it does not exist. */
export async function readContentFile(root: string, path: string): Promise<string | undefined> {
  return (await readContentBytes(root, path))?.toString('utf8');
}

/** The same file as bytes (a logo image): what a rollback puts back exactly. */
export async function readContentBytes(root: string, path: string): Promise<Buffer | undefined> {
  assertSafePath(path);
  return readFile(join(root, path)).catch(ifMissing(undefined));
}

/** Names of the files directly in a folder of `root`, hidden ones left out (empty when it does not exist). */
export async function listContentFolder(root: string, folder: string): Promise<string[]> {
  const names = await readdir(join(root, folder)).catch(ifMissing<string[]>([]));
  return names.filter((name) => !name.startsWith('.')).sort();
}
