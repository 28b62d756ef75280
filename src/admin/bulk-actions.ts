/**
 * The deal list's bulk actions (issue 16, item 5): each behind one confirmation dialog that says
 * what will happen to which deals, then one request, one commit.
 */
import { api } from './api.ts';
import type { ListedDeal } from './deal-list.ts';
import { statusLabel } from '../catalog/labels.ts';

const deals = (n: number) => `${n} ${n === 1 ? 'deal' : 'deals'}`;

/** What each action does, in the dialog's words, and the request that does it (resolving with what to say after). */
const ACTIONS = {
  delete: {
    title: (n: number) => `Delete ${deals(n)}?`,
    what: 'Their files are removed from the content repository in one commit, and their pages leave the site at once:',
    item: (d: ListedDeal) => d.title,
    button: (n: number) => `Delete ${deals(n)}`,
    danger: true,
    run: async (list: readonly ListedDeal[]) => {
      await api('DELETE', `/api/v1/deals?ids=${list.map((d) => encodeURIComponent(d.id)).join(',')}`);
      return `Deleted ${deals(list.length)}.`;
    },
  },
  expire: {
    title: (n: number) => `Mark ${deals(n)} expired?`,
    what: 'Their status becomes Expired, in one commit; they stay on the site, marked expired:',
    item: (d: ListedDeal) => `${d.title}: ${statusLabel(d.status)} → ${statusLabel('expired')}`,
    button: (n: number) => `Mark ${n} expired`,
    danger: false,
    run: async (list: readonly ListedDeal[]) => {
      // One bulk upsert: each deal by slug, only its status changed.
      await api('POST', '/api/v1/deals', { deals: list.map((d) => ({ slug: d.slug, status: 'expired' })) });
      return `Marked ${deals(list.length)} expired.`;
    },
  },
} as const;

export type BulkAction = keyof typeof ACTIONS;

/**
 * Ask in `dialog` (its `data-confirm-*` parts) whether to apply `action` to `list`; once
 * confirmed, apply it. Resolves with what to say when done, or undefined when cancelled;
 * rejects with the API's failure.
 */
export function confirmBulk(dialog: HTMLDialogElement, action: BulkAction, list: readonly ListedDeal[]): Promise<string | undefined> {
  const words = ACTIONS[action];
  dialog.querySelector('[data-confirm-title]')!.textContent = words.title(list.length);
  dialog.querySelector('[data-confirm-what]')!.textContent = words.what;
  dialog.querySelector('[data-confirm-list]')!.replaceChildren(...list.map((d) => Object.assign(document.createElement('li'), { textContent: words.item(d) })));
  const ok = dialog.querySelector<HTMLButtonElement>('[data-confirm-ok]')!;
  ok.textContent = words.button(list.length);
  ok.classList.toggle('danger', words.danger);
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve, reject) => {
    dialog.addEventListener('close', () => (dialog.returnValue === 'confirm' ? words.run(list).then(resolve, reject) : resolve(undefined)), { once: true });
  });
}
