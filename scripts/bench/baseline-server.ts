/**
 * The benchmark's baseline: a bare `node:http` server that answers each known request with
 * its precomputed bytes (read from a file the benchmark wrote). Nothing is computed per request.
 * Usage: node scripts/bench/baseline-server.ts <answers.json> <port>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port] = process.argv.slice(2);
const answers = new Map<string, Buffer>(Object.entries(JSON.parse(readFileSync(file as string, 'utf8')) as Record<string, string>).map(([url, body]) => [url, Buffer.from(body)]));
createServer((req, res) => {
  const body = answers.get(req.url ?? '');
  if (!body) return void res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.byteLength });
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
