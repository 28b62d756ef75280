/**
 * What `npm run bench` leaves for the tools that measure after it (bench/instructions.ts): where
 * a run keeps its catalog, how its real servers are run, and the requests of each case. One
 * source, so both measure the same servers on the same requests.
 */
import { join } from 'node:path';

/** A case of the bench: its requests, rotated, and what they stand for. */
export interface BenchCase {
  /** Short name for `--cases`: full, search, category, slug, startups. */
  key: string;
  name: string;
  paths: string[];
  what: string;
}

/** The directory of a run at this scale. */
export function benchDir(root: string, deals: string, startups: string): string {
  return join(root, 'bench-out', `${deals}-${startups}`);
}

/** Where a run writes its cases (`BenchCase[]`, JSON). */
export const casesFile = (dir: string): string => join(dir, 'cases.json');

/**
 * The environment of the measured servers: the run's catalog, data and compile cache, and no
 * rate limits (the baseline has none).
 */
export function measuredServerEnv(dir: string) {
  return {
    CONTENT_DIR: join(dir, 'content'),
    GENERATED_DIR: join(dir, 'generated'),
    DIST_DIR: join(dir, 'no-site'),
    DATA_DIR: join(dir, 'data'),
    RATE_LIMITS: 'off',
    NODE_COMPILE_CACHE: join(dir, 'compile-cache'),
  };
}

/** The V8 setting `npm start` and `npm run serve` use (a small young generation keeps RSS down). */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];
