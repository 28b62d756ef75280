/**
 * Real receivers for the notices the server sends (docs/notifications.md), on 127.0.0.1 and
 * ephemeral ports: an SMTP server (`smtp-server`, from the Nodemailer project) that keeps every
 * message it accepts, an HTTP server that keeps every webhook post, and a TCP server that takes
 * connections and never says a word (a mail or chat server that hangs).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope: MAIL FROM and every RCPT TO. */
  from: string;
  to: string[];
  /** Headers by lower-case name, unfolded and decoded. */
  headers: Map<string, string>;
  /** The body, decoded from its transfer encoding, with LF line ends. */
  text: string;
}

export interface Receiver<T> {
  url: string;
  received: T[];
  close: () => Promise<void>;
}

/** An SMTP server without TLS or authentication (loopback only), keeping each accepted message. */
export async function startSmtpReceiver(): Promise<Receiver<ReceivedMail>> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), ...parseMessage(Buffer.concat(chunks).toString('utf8')) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** An HTTP server answering 200 to every POST and keeping its JSON body. */
export async function startWebhookReceiver(path = '/hooks/notify'): Promise<Receiver<unknown>> {
  const received: unknown[] = [];
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  return { url: `http://127.0.0.1:${await listen(server)}${path}`, received, close: () => closeServer(server) };
}

/** A TCP server that accepts connections and never answers; `received` counts the connections. */
export async function startSilentServer(scheme: 'smtp' | 'http'): Promise<Receiver<Socket>> {
  const received: Socket[] = [];
  const server = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    received.push(socket);
  });
  const port = await listen(server);
  return {
    url: scheme === 'smtp' ? `smtp://127.0.0.1:${port}` : `http://127.0.0.1:${port}/hooks/silent`,
    received,
    close: () => {
      for (const socket of received) socket.destroy();
      return closeServer(server);
    },
  };
}

// --- internal ---

function listen(server: HttpServer | TcpServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

function closeServer(server: HttpServer | TcpServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A single-part message as Nodemailer writes plain text: headers, then a 7bit, quoted-printable or base64 body. */
function parseMessage(raw: string): Pick<ReceivedMail, 'headers' | 'text'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const body = raw.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const bytes = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : encoding === 'quoted-printable' ? quotedPrintable(body) : Buffer.from(body, 'utf8');
  return { headers, text: bytes.toString('utf8').replace(/\r\n/g, '\n').replace(/\n$/, '') };
}

function quotedPrintable(body: string): Buffer {
  const soft = body.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(soft.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as Nodemailer writes non-ASCII headers. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : quotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}
