/**
 * Server-Sent Events to the pages open on a dev server (`GET /_dev/events`): `hello` with the
 * process's id on connecting (a page seeing a new id reloads: the server restarted after a code
 * change), `reload` when the served catalog changed, `problem` with the content's errors while
 * it does not build, `ok` once it builds again. A page connecting while there is a problem gets
 * it at once, so the error stays over the page after a reload.
 */
import { randomUUID } from 'node:crypto';

export type DevEvent = { type: 'reload' } | { type: 'problem'; lines: string[] } | { type: 'ok' };

export class ReloadChannel {
  private readonly pages = new Set<ReadableStreamDefaultController<Uint8Array>>();
  private readonly boot = randomUUID();
  private problem: string[] | undefined;

  /** The event stream for one page. */
  connect(): Response {
    let page: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        page = controller;
        this.pages.add(page);
        // Reconnect soon after the server went (a restart after a code change), not after the default 3 s.
        page.enqueue(RETRY);
        page.enqueue(frame('hello', { boot: this.boot }));
        if (this.problem) page.enqueue(frame('problem', { lines: this.problem }));
      },
      // The page went away (closed, reloaded): the adapter cancels its stream.
      cancel: () => {
        this.pages.delete(page);
      },
    });
    return new Response(stream, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' } });
  }

  /** Tell every open page; a `problem` is also remembered for pages that connect later, until `ok`. */
  send(event: DevEvent): void {
    if (event.type === 'problem') this.problem = event.lines;
    if (event.type === 'ok') this.problem = undefined;
    const bytes = frame(event.type, event.type === 'problem' ? { lines: event.lines } : {});
    for (const page of this.pages) {
      try {
        page.enqueue(bytes);
      } catch {
        this.pages.delete(page);
      }
    }
  }

  /** Whether a problem is shown now. */
  get failing(): boolean {
    return this.problem !== undefined;
  }

  /** End every stream (the server is closing). */
  close(): void {
    for (const page of this.pages) {
      try {
        page.close();
      } catch {
        // Already closed by its page.
      }
    }
    this.pages.clear();
  }
}

// --- internal ---

const encoder = new TextEncoder();
const RETRY = encoder.encode('retry: 500\n\n');

/** One event in the text/event-stream format (the data is one JSON line). */
function frame(event: string, data: object): Uint8Array {
  return encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
