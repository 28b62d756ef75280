/**
 * The save button's HTML (issue 18, item 3): one source for the cards and pages Astro builds
 * (SaveButton.astro) and the cards instant search draws in the browser (InstantSearch.astro). A
 * plain form posting to the API, which src/members/saved-buttons.ts turns into a toggle.
 */
import { escapeHtml } from '../escape-html.ts';

export interface SaveTarget {
  kind: 'deal' | 'startup';
  id: string;
  /** Names the button for screen readers ("Save AWS Activate"). */
  title: string;
  /** The page to come back to after a form post (this page's path and query). */
  next: string;
}

/** @example saveFormHtml({ kind: 'deal', id: 'd-aws00001', title: 'AWS Activate', next: '/deals/' }) */
export function saveFormHtml({ kind, id, title, next }: SaveTarget): string {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return `<form method="post" action="/api/v1/me/saved" class="save" data-save>${hidden('kind', kind)}${hidden('id', id)}${hidden('action', 'save')}${hidden('next', next)}<button type="submit" class="save-button"><svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2h8v12l-4-3-4 3z"></path></svg><span data-save-label>Save</span><span class="visually-hidden"> ${escapeHtml(title)}</span></button></form>`;
}
