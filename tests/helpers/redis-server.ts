/**
 * A real `redis-server` (the Debian package) for tests of shared state: its own process on a
 * free loopback port, no persistence, stopped (or killed mid-run) by the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './free-port.ts';

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** SIGKILL: the outage a crash or a lost network would cause. */
  kill: () => Promise<void>;
  stop: () => Promise<void>;
}

export async function startRedisServer(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  const child = spawn('redis-server', ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnFailed = new Promise<never>((_, reject) => child.once('error', (error) => reject(new Error(`redis-server could not start (apt-get install redis-server): ${error.message}`))));
  await Promise.race([waitForPing(chosen), spawnFailed]);
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  process.once('exit', () => child.kill('SIGKILL'));
  return { url: `redis://127.0.0.1:${chosen}`, port: chosen, process: child, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}

// --- internal ---

/** Resolves once the server answers PING with PONG (within 10 s). */
async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const pong = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
    });
    if (pong) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING`);
}
