/**
 * The browser side the admin lists share (deals, startups): the view kept in the address (a new
 * history entry for each change, in place while typing a search), the filter form, sortable
 * column headers, the pager, and "Deleted …" said once on arriving from an edit page's Delete.
 * Each list brings its own view reading and query (src/admin/deal-list.ts, startup-list.ts).
 */
import { failureText, say, sayDeleted } from './api.ts';

/** What every list view has: a sort column, its direction, a page. */
export interface PagedView {
  sort: string;
  dir: 'asc' | 'desc';
  page: number;
}

export interface ListOptions<V extends PagedView> {
  filters: HTMLFormElement;
  pager: HTMLElement;
  read: (params: URLSearchParams) => V;
  query: (view: V) => string;
  /** Show the current view (read with `current()`). */
  render: () => void;
  /** Whose records the list shows: the edit page a "restore it" link opens. */
  kind: 'deal' | 'startup';
}

export interface ListControls<V extends PagedView> {
  current: () => V;
  /** Show `view`: a new history entry (`push`), or in place of the current one. */
  go: (view: V, how?: 'push' | 'replace') => void;
  /** Put the view into the filter form, the sort marks and the pager (`at` of `pages`). */
  show: (view: V, at: number, pages: number) => void;
  /** Load the records, then say "Deleted …" (with a link to restore it) when the address carries it, and drop it from there. */
  start: (load: () => Promise<void>) => void;
}

/**
 * Wire a list's filter form, sort headers and pager to the address.
 * @example const list = listControls({ filters, pager, read: readView, query: viewQuery, render });
 */
export function listControls<V extends PagedView>(options: ListOptions<V>): ListControls<V> {
  const { filters, pager, read, query, render } = options;
  const current = (): V => read(new URLSearchParams(location.search));
  const go = (view: V, how: 'push' | 'replace' = 'push'): void => {
    history[how === 'push' ? 'pushState' : 'replaceState'](null, '', location.pathname + query(view));
    render();
  };

  function show(view: V, at: number, pages: number): void {
    for (const [name, value] of Object.entries(view)) {
      const control = filters.elements.namedItem(name) as HTMLInputElement | null;
      if (control && control !== document.activeElement) control.value = String(value);
    }
    for (const th of document.querySelectorAll<HTMLElement>('th[data-column]')) {
      const sorted = view.sort === th.dataset.column;
      if (sorted) th.setAttribute('aria-sort', view.dir === 'desc' ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
      const mark = th.querySelector('.sort-mark');
      if (mark) mark.textContent = sorted ? (view.dir === 'desc' ? ' ↓' : ' ↑') : '';
    }
    const link = (to: number, words: string, enabled: boolean) => {
      if (!enabled) return `<span aria-disabled="true">${words}</span>`;
      const href = (location.pathname + query({ ...view, page: to })).replaceAll('&', '&amp;').replaceAll('"', '&quot;');
      return `<a href="${href}" data-page="${to}">${words}</a>`;
    };
    pager.innerHTML = pages > 1 ? [link(at - 1, 'Previous', at > 1), `<span>Page ${at} of ${pages}</span>`, link(at + 1, 'Next', at < pages)].join(' ') : '';
  }

  /** The view the filter form shows, on its first page (a new filter starts from the top). */
  const formView = (): V => {
    const { sort, dir } = current();
    return { ...read(new URLSearchParams(new FormData(filters) as unknown as Record<string, string>)), sort, dir, page: 1 };
  };
  filters.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).id !== 'q') go(formView());
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  filters.addEventListener('input', (event) => {
    if ((event.target as HTMLElement).id !== 'q') return;
    clearTimeout(timer);
    timer = setTimeout(() => go(formView(), 'replace'), 150);
  });
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    go(formView());
  });
  document.querySelector('thead')!.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('[data-sort]');
    if (!button) return;
    const view = current();
    const key = button.dataset.sort!;
    // A second click on the sorted column turns the order round; the newest first is the useful start for dates.
    const dir = view.sort === key ? (view.dir === 'asc' ? 'desc' : 'asc') : key === 'updated' ? 'desc' : 'asc';
    go({ ...view, sort: key, dir, page: 1 } as V);
  });
  pager.addEventListener('click', (event) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('[data-page]');
    if (!link) return;
    event.preventDefault();
    go({ ...current(), page: Number(link.dataset.page) });
    document.querySelector('table')!.scrollIntoView({ block: 'start' });
  });
  addEventListener('popstate', render);

  function start(load: () => Promise<void>): void {
    const params = new URLSearchParams(location.search);
    const deleted = params.get('deleted');
    const slug = params.get('slug');
    void load()
      .then(() => {
        if (deleted === null) return;
        history.replaceState(null, '', location.pathname + query(current()));
        sayDeleted(`Deleted "${deleted}".`, options.kind, slug ? [{ name: deleted, slug }] : []);
      })
      .catch((f: unknown) => say(failureText(f), 'error'));
  }
  return { current, go, show, start };
}
