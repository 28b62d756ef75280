/**
 * The History panel of an admin record page (issue 16, item 3), deal or startup: the record's
 * changes from the content repository's history (GET /api/v1/admin/<kind>s/history), newest
 * first, each with when, who, whether it came through the admin or by hand in git, what kind of
 * change, and every field old → new (long values cut short, the whole in a disclosure); "Older
 * changes" pages back. "Restore this version" reverts to it (POST …/revert with `If-Match`) as
 * one new commit, behind a confirmation. A deleted record's page shows its history alone, from
 * which a version is restored. Markup: src/components/admin/HistoryPanel.astro.
 */
import type { RecordHistory, RecordVersion } from '../schemas/answers.ts';
import { api, failureText, say } from './api.ts';

export interface HistoryOptions {
  kind: 'deal' | 'startup';
  /** The record as the page has it now: its id and slug, and the ETag it was read with. */
  current: () => { id: string; slug: string; etag: string | null };
  /** A field's name in the page's words (the form's label). */
  label: (field: string) => string;
  /** After a restore: show the record as restored (`answer` is the revert's), this panel too (`show`). */
  restored: (answer: Record<string, unknown>) => Promise<void>;
}

/** Values longer than this are cut short, the whole behind "Show all". */
export const SHORT_VALUE = 120;

/** Words for the fields no form shows (the rest are named by the form's labels). */
const FIELD_WORDS: Record<string, string> = { id: 'Id', lastUpdated: 'Last updated', draft: 'Draft' };

const CHANGES: Record<RecordVersion['change'], string> = { created: 'Created', updated: 'Edited', renamed: 'Renamed', deleted: 'Deleted' };

/**
 * Fill `panel` with the record's history and keep it in step: `show()` (re)reads the first page.
 * @example const history = historyPanel(section, { kind: 'deal', current, label, restored }); await history.show();
 */
export function historyPanel(panel: HTMLElement, options: HistoryOptions): { show: () => Promise<void>; showDeleted: (form: HTMLFormElement) => Promise<void> } {
  const list = panel.querySelector<HTMLOListElement>('[data-history-list]')!;
  const more = panel.querySelector<HTMLButtonElement>('[data-history-more]')!;
  let offset = 0;

  async function page(from: number): Promise<void> {
    const answer = await api<RecordHistory>('GET', `/api/v1/admin/${options.kind}s/history?${recordKey()}&offset=${from}`);
    if (from === 0) list.replaceChildren();
    list.append(...answer.history.map((version, i) => entry(version, from === 0 && i === 0)));
    offset = from + answer.history.length;
    more.hidden = !answer.more;
    panel.hidden = false;
  }

  function entry(version: RecordVersion, latest: boolean): HTMLLIElement {
    const item = element('li', 'version');
    const when = element('time', '', readableWhen(version.date));
    when.dateTime = version.date;
    const via = element('span', `via via-${version.via}`, version.via === 'admin' ? 'via admin' : 'by hand in git');
    const head = element('p', 'version-head');
    head.append(when, ' · ', element('strong', '', version.author.name), ' · ', via, ' · ', CHANGES[version.change]);
    item.append(head, element('p', 'version-message', version.message));
    if (version.problem) item.append(element('p', 'version-problem', `Its fields could not be read: ${version.problem}`));
    if (version.fields.length > 0) {
      const changes = element('dl', 'changes');
      for (const change of version.fields) {
        const row = element('div', 'change');
        const values = element('dd');
        // A creation lists what it set, a deletion what it removed; an edit, old → new.
        if (version.change === 'created' && change.from === undefined) values.append(value(change.to, 'ins'));
        else if (version.change === 'deleted' && change.to === undefined) values.append(value(change.from, 'del'));
        else values.append(value(change.from, 'del'), element('span', 'arrow', ' → '), value(change.to, 'ins'));
        row.append(element('dt', '', FIELD_WORDS[change.field] ?? options.label(change.field)), values);
        changes.append(row);
      }
      item.append(changes);
    }
    if (latest) item.append(element('p', 'version-current', version.change === 'deleted' ? 'The latest change: since then it is on no page.' : 'This is the current version.'));
    else if (version.change !== 'deleted') {
      const restore = element('button', 'restore', 'Restore this version');
      restore.type = 'button';
      restore.addEventListener('click', () => void restoreTo(version));
      item.append(restore);
    }
    return item;
  }

  async function restoreTo(version: RecordVersion): Promise<void> {
    const when = readableWhen(version.date);
    if (!confirm(`Restore the version of ${when} by ${version.author.name}? Every field goes back to how it was then, as one new commit; the changes since stay in the history.`)) return;
    const { id, slug, etag } = options.current();
    try {
      const answer = await api<Record<string, unknown>>('POST', `/api/v1/admin/${options.kind}s/revert`, { ...(id ? { id } : { slug }), commit: version.commit }, etag ? { 'If-Match': etag } : {});
      await options.restored(answer);
      document.querySelector('[data-status]')?.scrollIntoView({ block: 'center' });
      say(`Restored the version of ${when}${typeof answer.commit === 'string' ? ` (new commit ${answer.commit.slice(0, 7)})` : ''}. The form shows it now.`);
    } catch (failure) {
      const f = failure as { error?: string };
      say(
        /has changed since you read it/.test(f.error ?? '')
          ? `Someone else changed this ${options.kind} since you opened it, so nothing was restored. Reload the page to see their version and its history, then restore again if you still want to.`
          : failureText(failure),
        'error',
      );
    }
  }

  /** The record in the history's query: by id, or by slug once deleted (it has no id then). */
  function recordKey(): string {
    const { id, slug } = options.current();
    return id ? `id=${encodeURIComponent(id)}` : `slug=${encodeURIComponent(slug)}`;
  }

  /**
   * The record is not in the catalog: `form` hidden; when its history has it (deleted), say so,
   * each earlier version restorable; otherwise say there is no such record.
   */
  async function showDeleted(form: HTMLFormElement): Promise<void> {
    const { slug } = options.current();
    const found = await page(0).then(
      () => true,
      () => false,
    );
    // Hidden either way: an empty form under a slug that names nothing would invite a save that creates a record by mistake.
    form.hidden = true;
    if (!found) {
      document.querySelector('h1')!.textContent = `No such ${options.kind}`;
      return say(`No ${options.kind} has slug ${slug}, now or in its history: it may have been renamed. Find it in the list above, or start a new one there.`, 'error');
    }
    document.querySelector('h1')!.textContent = `Deleted ${options.kind}: ${slug}`;
    say(`This ${options.kind} was deleted; it is on no page. Its history is below: restore a version to bring it back, as one new commit.`);
  }

  more.addEventListener('click', () => void page(offset).catch((f: unknown) => say(failureText(f), 'error')));
  return { show: () => page(0), showDeleted };
}

/** A field value in a change: `(none)` when absent, lists joined, long text cut with the whole behind "Show all". */
export function valueText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(none)';
  if (Array.isArray(value)) return value.map((v) => valueText(v)).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number);
}

// --- internal ---

function value(raw: unknown, tag: 'del' | 'ins'): HTMLElement {
  const text = valueText(raw);
  const shown = element(tag, raw === undefined || raw === null ? 'none' : '');
  if (text.length <= SHORT_VALUE) {
    shown.textContent = text;
    return shown;
  }
  const details = element('details', 'long');
  const summary = element('summary', '', `${text.slice(0, SHORT_VALUE).trimEnd()}… `);
  summary.append(element('span', 'show-all', 'Show all'));
  details.append(summary, element('div', 'full', text));
  shown.append(details);
  return shown;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** `24 November 2026, 14:10` in the reader's time zone. */
function readableWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short' });
}
