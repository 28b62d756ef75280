/**
 * A real nginx (the Debian package) in front of test servers: its own process, not a daemon,
 * with its pid file, logs and temporary files in a folder of the test's, on the loopback
 * ports its configuration names, and a self-signed certificate for 127.0.0.1 made with openssl.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';

export interface NginxServer {
  process: ChildProcess;
  /** The access log so far. */
  accessLog: () => Promise<string>;
  /** The error log so far. */
  errorLog: () => Promise<string>;
  stop: () => Promise<void>;
}

/** Where Debian puts nginx (/usr/sbin is not on every user's PATH). */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

/**
 * A self-signed certificate for 127.0.0.1 (and `dnsNames`, if any) in `dir`: `cert.pem`,
 * `key.pem`, and the certificate text (for a client's `ca`).
 */
export async function selfSignedCertificate(dir: string, dnsNames: readonly string[] = []): Promise<{ cert: string; key: string; pem: string }> {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const names = ['IP:127.0.0.1', ...dnsNames.map((name) => `DNS:${name}`)].join(',');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', `subjectAltName=${names}`, '-keyout', key, '-out', cert], {
    stdio: 'pipe',
  });
  return { cert, key, pem: await readFile(cert, 'utf8') };
}

/**
 * Start nginx with `site` (server and upstream blocks, as a file of sites-enabled) inside a
 * minimal main configuration whose files all live in `dir`; resolves once every port in
 * `ports` accepts connections.
 * @throws when nginx is not installed (apt-get install nginx-light) or refuses the configuration
 */
export async function startNginx(dir: string, site: string, ports: readonly number[]): Promise<NginxServer> {
  const siteFile = join(dir, 'site.conf');
  const mainFile = join(dir, 'nginx.conf');
  await writeFile(siteFile, site);
  await writeFile(
    mainFile,
    [
      // As root the workers would run as nobody, who cannot enter the test's private folder.
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, `${kind}-temp`)};`),
      `  include ${siteFile};`,
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-p', dir, '-c', mainFile, '-e', join(dir, 'error.log'), '-g', 'daemon off; master_process on;'];
  try {
    execFileSync(NGINX, ['-t', ...args], { stdio: 'pipe' });
  } catch (error) {
    const problem = error as NodeJS.ErrnoException & { stderr?: Buffer };
    if (problem.code === 'ENOENT') throw new Error('nginx is not installed: apt-get install nginx-light (the proxy test needs the real proxy)', { cause: error });
    throw new Error(`nginx refused the configuration:\n${problem.stderr?.toString() ?? String(error)}`, { cause: error });
  }
  const child = spawn(NGINX, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`nginx could not start: ${error.message}`)));
    void exited.then(async () => reject(new Error(`nginx exited at start:\n${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`)));
  });
  failed.catch(() => undefined);
  await Promise.race([Promise.all(ports.map(waitForPort)), failed]);
  process.once('exit', () => child.kill('SIGKILL'));
  const read = (name: string) => () => readFile(join(dir, name), 'utf8').catch(() => '');
  return {
    process: child,
    accessLog: read('access.log'),
    errorLog: read('error.log'),
    stop: async () => {
      // SIGQUIT: graceful shutdown (the master waits for its workers).
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// --- internal ---

/** Resolves once `port` on 127.0.0.1 accepts a connection (within 10 s). */
async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on port ${port}`);
}
