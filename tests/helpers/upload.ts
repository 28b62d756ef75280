/**
 * An upload the server may refuse before reading it all (413 on Content-Length, or once the
 * limit is passed): the server answers, then closes the connection with the rest unread. fetch
 * reports the write that fails then (EPIPE, ECONNRESET) as its own error and drops the answer;
 * this client stops sending once answered, and tells a connection closed before any answer.
 */
import http from 'node:http';

/** Between chunks: far longer than the server takes to answer a body it refuses. */
const PAUSE_MS = 5;

export interface UploadAnswer {
  /** 0 when the connection closed before an answer arrived. */
  status: number;
  /** The answer's size; its text is kept up to 64 KB. */
  bytes: number;
  text: string;
  ms: number;
  /** The socket error (EPIPE, ECONNRESET) when the connection closed before an answer. */
  closed?: string;
}

/**
 * POST `chunks` one after the other, with Content-Length or chunked.
 * @example await upload(`${base}/api/mcp`, { 'Content-Type': 'application/json' }, [Buffer.alloc(1 << 20)], true)
 */
export function upload(url: string, headers: Record<string, string>, chunks: readonly Uint8Array[], declareLength: boolean): Promise<UploadAnswer> {
  const started = performance.now();
  const length = chunks.reduce((n, chunk) => n + chunk.byteLength, 0);
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, { method: 'POST', headers: { ...headers, ...(declareLength ? { 'Content-Length': String(length) } : {}) } }, (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(parts);
        resolve({ status: response.statusCode ?? 0, bytes: body.byteLength, text: body.toString('utf8', 0, 65_536), ms: performance.now() - started });
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve({ status: 0, bytes: 0, text: '', ms: performance.now() - started, closed: error.code });
      else reject(error);
    });
    // A pause after each chunk lets an answer arrive and be read (and sending stop) before a
    // write to the closing connection fails first, as a client reacting to an early answer does.
    const send = (i: number): void => {
      if (answered || i === chunks.length) return void request.end();
      request.write(chunks[i], (error) => (error ? undefined : setTimeout(send, PAUSE_MS, i + 1)));
    };
    send(0);
  });
}
