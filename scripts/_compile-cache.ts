/**
 * Node's module compile cache for the server's entry scripts (`npm start`, `npm run serve`,
 * `npm run dev`): V8's compiled code of every module imported afterwards is kept on disk, so a
 * start compiles nothing it compiled before (about half of the time to the first answer went to
 * compiling, TypeScript stripped first: docs/performance.md, "Content build and start"). Entries
 * are checked against each source file's size and checksum, so an edited file is compiled anew.
 *
 * The folder is the project's own, `node_modules/.cache/node-compile-cache` (or
 * `NODE_COMPILE_CACHE`), never Node's default in the shared temporary folder: that one is
 * created open to every user and holds code the server would run, so another account on the
 * machine could plant it there. Where the folder cannot be written the cache is simply off.
 */
import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Turn the cache on; import the modules it should cover after this (with `await import`). */
export function useCompileCache(): void {
  enableCompileCache(process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL('../node_modules/.cache/node-compile-cache', import.meta.url)));
}
