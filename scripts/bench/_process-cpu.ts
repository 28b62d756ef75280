/**
 * A measured server's CPU and memory as Linux reports them in /proc, for `npm run bench` and
 * `npm run bench:instructions`: both must wait until a server's start work is done before they
 * measure it, and both read the same counters to know.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * A process's CPU seconds, user and system, and of them those its other threads used (V8's and
 * libuv's). Summed thread by thread, not the total less the main thread: the two files are
 * read at different instants, in ticks of 1/100 s, and their difference could come out below zero.
 */
export function cpuTimes(child: ChildProcess): { user: number; system: number; offMainThread: number } {
  const { user, system } = statTimes(`/proc/${child.pid}/stat`);
  let offMainThread = 0;
  for (const thread of readdirSync(`/proc/${child.pid}/task`)) {
    if (thread === String(child.pid)) continue;
    const times = statTimes(`/proc/${child.pid}/task/${thread}/stat`);
    offMainThread += times.user + times.system;
  }
  return { user, system, offMainThread };
}

/** User and system seconds from a /proc stat file (fields 14 and 15, in clock ticks of 1/100 s). */
function statTimes(file: string): { user: number; system: number } {
  const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

function cpuSeconds(child: ChildProcess): number {
  const { user, system } = cpuTimes(child);
  return user + system;
}

/**
 * Wait until a process has used no CPU for a second, or `atMostMs` went by; the seconds waited.
 * A server keeps working after its first answer (the brotli of its pinned lists runs on libuv's
 * pool for about 10 s at 50,000 deals), and that work would otherwise be measured as the cost of
 * the requests that share the window with it.
 */
export async function settled(child: ChildProcess, atMostMs = 60_000): Promise<number> {
  const started = performance.now();
  let before = cpuSeconds(child);
  for (let idle = 0; idle < 4 && performance.now() - started < atMostMs;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = cpuSeconds(child);
    idle = now - before < 0.02 ? idle + 1 : 0;
    before = now;
  }
  return (performance.now() - started) / 1000;
}

/** A process's resident memory, in MB. */
export function rss(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}
