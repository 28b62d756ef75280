/**
 * The Markdown editor of a description (issue 16, item 5): Write and Preview tabs over the
 * textarea. The preview is rendered by the site's own renderer (src/agents/markdown-html.ts,
 * the function the deal page uses), so what an editor sees is what the page will show, raw HTML
 * shown as text and only the links the policy allows.
 */
import { markdownToHtml } from '../agents/markdown-html.ts';

/**
 * Wire the tabs of one editor (`[data-md-editor]`: a tablist of two tabs, each with its panel;
 * the first panel holds the textarea, the second is filled with the preview when shown).
 * Arrow keys move between the tabs (WAI-ARIA tabs pattern).
 */
export function markdownEditor(root: HTMLElement): void {
  const tabs = Array.from(root.querySelectorAll<HTMLButtonElement>('[role=tab]'));
  const textarea = root.querySelector<HTMLTextAreaElement>('textarea')!;
  const select = (chosen: HTMLButtonElement) => {
    for (const tab of tabs) {
      const on = tab === chosen;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '')!;
      panel.hidden = !on;
      if (on && panel.querySelector('textarea') === null) {
        panel.innerHTML = textarea.value.trim() ? markdownToHtml(textarea.value) : '<p class="md-empty">Nothing to preview yet.</p>';
      }
    }
  };
  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      const next = tabs[(tabs.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
      select(next);
      next.focus();
    });
  }
}
