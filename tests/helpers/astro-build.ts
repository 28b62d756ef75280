/**
 * The real Astro build of the site for a generated catalog, into a folder of the test's own
 * (the browser suite and the reliability fuzz serve it with the real server).
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Run `astro build` for the catalog in `generatedDir`, writing the site to `distDir`. */
export function astroBuild(generatedDir: string, distDir: string): Promise<void> {
  return new Promise((done, fail) => {
    const output: string[] = [];
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build', '--silent'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GENERATED_DIR: generatedDir, DIST_DIR: distDir, ASTRO_TELEMETRY_DISABLED: '1' },
    });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`astro build exited with ${code}:\n${output.join('')}`))));
  });
}
