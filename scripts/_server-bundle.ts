/**
 * The server's modules bundled into one file with esbuild, so that `npm start` and `npm run
 * serve` read and compile one file instead of resolving, reading and stripping the types of some
 * 330 modules one by one: about a fifth of the start at 5,000 deals (docs/performance.md,
 * nineteenth sitting). The bundle is a cache of the sources beside it, like the compile cache:
 *
 * - it is used only while each of the project's files it was made from, and the installed
 *   packages' lock file (which `npm install` and `npm ci` rewrite), have the size and
 *   modification time its manifest recorded, under the Node version that made it; otherwise the
 *   server runs from source, as `npm run dev` always does, and says why. (Checking every
 *   package file too, some 1,200 stats, took 11 ms; the project's 250 take about 3.)
 * - `import.meta.url` and `import.meta.dirname` keep naming the source file, so worker threads
 *   and files read beside a module are found as they are from source;
 * - the packages the project only loads on first use, with `import()`, are left to Node: they
 *   stay out of the start (a static import of one would load it at every start).
 *
 * `npm run build` makes it, and `npm start` when it is stale. `SERVER_BUNDLE=off` runs from
 * source; `SERVER_BUNDLE=<folder>` keeps it elsewhere (docs/operations.md).
 */
import { readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

export type ServerModules = typeof import('./_server-entry.ts');

const ROOT = resolve(import.meta.dirname, '..');
const ENTRY = join(ROOT, 'scripts', '_server-entry.ts');
const BUNDLE = 'server.mjs';
const MANIFEST = 'manifest.json';
/** What the bundle depends on besides the project's modules in it: how it is made, and the packages installed. */
const ALSO_MADE_FROM = ['scripts/_server-bundle.ts', 'scripts/_ascii-source.ts', 'package-lock.json', 'node_modules/.package-lock.json'];
/** Loaded with `import()` on first use only: sharp (native code), and the optional integrations. */
const LOADED_ON_FIRST_USE = ['sharp', 'stripe', 'nodemailer', 'pg', 'openid-client'];
/**
 * CommonJS packages in an ES module bundle still call `require` and read `__dirname`; `require`
 * resolves from the project, wherever the bundle is kept.
 */
const COMMONJS_GLOBALS = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  "import { fileURLToPath as __bundlePath } from 'node:url';",
  `const require = __bundleRequire(${JSON.stringify(pathToFileURL(join(ROOT, 'package.json')).href)});`,
  'const __filename = __bundlePath(import.meta.url);',
  "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));",
].join('\n');

interface Manifest {
  node: string;
  /** The checkout it was made from: the bundle names its source files. */
  root: string;
  /** Path from the project root → [size, modification time in ms], for the project's own files. */
  inputs: Record<string, [number, number]>;
}

/** Where the bundle is kept; undefined when `SERVER_BUNDLE=off`. */
export function bundleFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.SERVER_BUNDLE === 'off') return undefined;
  return env.SERVER_BUNDLE ? resolve(env.SERVER_BUNDLE) : join(ROOT, 'node_modules', '.cache', 'server-bundle');
}

/** Why the bundle in `folder` cannot be used, or undefined when it can (one stat per input: about 3 ms in all). */
export function staleBecause(folder: string): string | undefined {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return 'there is none';
  }
  if (manifest.node !== process.version) return `it was made with Node ${manifest.node}`;
  if (manifest.root !== ROOT) return `it was made from ${manifest.root}`;
  for (const [path, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
    const now = statSync(join(ROOT, path), { throwIfNoEntry: false });
    if (now?.size !== size || now.mtimeMs !== mtimeMs) return `${path} changed`;
  }
  return undefined;
}

/** The server's modules: from the bundle when it is current, else from source, saying why on `print`. */
export async function serverModules(print: (line: string) => void = console.error): Promise<ServerModules> {
  const folder = bundleFolder();
  if (folder) {
    const stale = staleBecause(folder);
    if (!stale) {
      print(`running from the server bundle in ${folder}`);
      return (await import(pathToFileURL(join(folder, BUNDLE)).href)) as ServerModules;
    }
    print(`server bundle not used (${stale}): running from source; npm run build bundles it again`);
  }
  return import('./_server-entry.ts');
}

/**
 * Bundle the server when its bundle is stale (`npm start`, `npm run build`). Never fails the
 * caller: a server without a bundle runs from source.
 */
export async function freshServerBundle(print: (line: string) => void = console.error): Promise<void> {
  const folder = bundleFolder();
  if (!folder || !staleBecause(folder)) return;
  try {
    await bundleServer(folder);
  } catch (error) {
    print(`could not bundle the server (${String((error as Error).message).split('\n')[0]}): it runs from source`);
  }
}

/** Make the bundle in `folder`: the bundle first, then its manifest, each written whole (renamed into place). */
export async function bundleServer(folder: string): Promise<void> {
  // Loaded here: a server started from a current bundle never needs esbuild or acorn.
  const [{ build }, { asciiSource }] = await Promise.all([import('esbuild'), import('./_ascii-source.ts')]);
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: join(folder, BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    banner: { js: COMMONJS_GLOBALS },
    // Error names and logged class names stay as written, though the bundle renames clashes.
    keepNames: true,
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [sourcePlaces, packagesFromProject],
  });
  await mkdir(folder, { recursive: true });
  // The code in ASCII throughout (scripts/_ascii-source.ts); the source map as esbuild made it.
  for (const file of result.outputFiles) await writeWhole(file.path, file.path.endsWith('.mjs') ? asciiSource(file.text) : file.contents);
  const inputs: Manifest['inputs'] = {};
  const ownModules = Object.keys(result.metafile.inputs).filter((path) => !path.startsWith('node_modules/'));
  for (const path of [...ownModules, ...ALSO_MADE_FROM]) {
    const { size, mtimeMs } = statSync(join(ROOT, path));
    inputs[path] = [size, mtimeMs];
  }
  await writeWhole(join(folder, MANIFEST), JSON.stringify({ node: process.version, root: ROOT, inputs } satisfies Manifest));
}

/** `import.meta.url`, `.dirname` and `.filename` in the project's own modules name the source file, not the bundle. */
const sourcePlaces: Plugin = {
  name: 'source-places',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const text = await readFile(path, 'utf8');
      if (!text.includes('import.meta.')) return undefined;
      return {
        loader: 'ts',
        contents: text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
          .replaceAll('import.meta.filename', JSON.stringify(path)),
      };
    });
  },
};

/**
 * The packages left to Node are imported by their file in the project's `node_modules`, so they
 * load wherever the bundle is kept (`SERVER_BUNDLE` outside the project has no `node_modules`
 * above it). One that is not installed stays a bare name, failing on first use as from source.
 */
const packagesFromProject: Plugin = {
  name: 'packages-from-project',
  setup(build) {
    const names = new RegExp(`^(${LOADED_ON_FIRST_USE.join('|')})$`);
    build.onResolve({ filter: names }, ({ path }) => {
      try {
        return { path: import.meta.resolve(path), external: true };
      } catch {
        return { path, external: true };
      }
    });
  },
};

async function writeWhole(path: string, contents: string | Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
}
