/**
 * A page's view of the dev server's event stream (`/_dev/events`, functions/dev/): the events
 * as they arrive, read over a real HTTP connection, for tests of the preview loop.
 */

export interface DevEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface DevEvents {
  /** The next event of `type` not yet taken (earlier events of other types are skipped). */
  next: (type: string, timeoutMs?: number) => Promise<DevEvent>;
  close: () => void;
}

/**
 * @example const events = await openDevEvents(server.url); await events.next('hello')
 */
export async function openDevEvents(baseUrl: string): Promise<DevEvents> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/_dev/events`, { signal: abort.signal });
  if (response.status !== 200 || !response.body) throw new Error(`GET /_dev/events: ${response.status}`);
  const queue: DevEvent[] = [];
  let wake: (() => void) | undefined;
  void (async () => {
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) !== -1) {
          const frame = text.slice(0, end);
          text = text.slice(end + 2);
          const type = /^event: (.*)$/m.exec(frame)?.[1] ?? 'message';
          const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? '{}') as Record<string, unknown>;
          queue.push({ type, data });
          wake?.();
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    next: async (type, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = queue.findIndex((event) => event.type === type);
        if (at !== -1) return queue.splice(0, at + 1).at(-1) as DevEvent;
        if (Date.now() > deadline) throw new Error(`no \`${type}\` event in ${timeoutMs} ms (got: ${queue.map((e) => e.type).join(', ') || 'nothing'})`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
    close: () => abort.abort(),
  };
}
