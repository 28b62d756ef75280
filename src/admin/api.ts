/**
 * Browser-side helpers for the admin pages: same-origin JSON calls to the API (the session
 * cookie rides along; the browser sends Origin, which the server checks), and error display.
 */

export interface ApiFailure {
  error: string;
  code: string;
  hint?: string;
}

/** Call the API; resolves with the JSON body, or throws the API's error object. A file (`Blob`) is sent as it is, with its type; anything else as JSON. */
export async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const file = body instanceof Blob ? body : undefined;
  const type = file ? file.type || 'application/octet-stream' : 'application/json';
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    // Revalidated every time: after a write, the admin pages must not show a cached list from before it.
    cache: 'no-cache',
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': type }), ...headers },
    body: body === undefined ? undefined : (file ?? JSON.stringify(body)),
  });
  const json = (await response.json().catch(() => ({ error: `HTTP ${response.status}`, code: 'internal_error' }))) as T & ApiFailure;
  if (!response.ok) {
    if (response.status === 401) location.href = `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
    throw json;
  }
  return json;
}

/** Show a message in the page's status region (announced to screen readers). */
export function say(message: string, kind: 'ok' | 'error' = 'ok'): void {
  const region = document.querySelector<HTMLElement>('[data-status]');
  if (!region) return;
  region.textContent = message;
  region.dataset.kind = kind;
}

/**
 * Say a deal was published, with a link to its page and (unless `edit` is false: the form is
 * already open) to its edit form. Built as nodes: the title is user text.
 */
export function sayPublished(message: string, slug: string, { edit = true } = {}): void {
  say(message);
  const region = document.querySelector<HTMLElement>('[data-status]');
  if (!region) return;
  const link = (href: string, text: string): HTMLAnchorElement => Object.assign(document.createElement('a'), { href, textContent: text });
  const path = encodeURIComponent(slug);
  region.append(' ', link(`/deals/${path}/`, 'View the page'));
  if (edit) region.append(' · ', link(`/admin/deal/?slug=${path}`, 'Edit the deal'));
}

/**
 * Say records were deleted, each with a link to its admin page, where its history restores it
 * (`kind`: `deal` or `startup`, the page's name). Built as nodes: names are user text.
 */
export function sayDeleted(message: string, kind: 'deal' | 'startup', deleted: ReadonlyArray<{ name: string; slug: string }>): void {
  say(message);
  const region = document.querySelector<HTMLElement>('[data-status]');
  if (!region || deleted.length === 0) return;
  region.append(' Undo: ');
  deleted.forEach(({ name, slug }, i) => {
    if (i > 0) region.append(' · ');
    region.append(Object.assign(document.createElement('a'), { href: `/admin/${kind}/?slug=${encodeURIComponent(slug)}`, textContent: deleted.length === 1 ? 'restore it' : `restore ${name}` }));
  });
}

/** Show the pending count in the admin navigation ("Review queue (3)"); quietly nothing when the queue cannot be read. */
export async function showPendingCount(): Promise<void> {
  const link = document.querySelector<HTMLElement>('[data-queue-link]');
  const response = await fetch('/api/v1/admin/submissions?status=pending&limit=1', { credentials: 'same-origin', headers: { Accept: 'application/json' } }).catch(() => undefined);
  if (!link || !response?.ok) return;
  const { total } = (await response.json()) as { total: number };
  link.textContent = `Review queue (${total})`;
}

/** Text for an API failure: the message and its hint. */
export function failureText(failure: unknown): string {
  const f = failure as Partial<ApiFailure>;
  return [f.error ?? String(failure), f.hint].filter(Boolean).join(' ');
}

export { escapeHtml } from '../escape-html.ts';
