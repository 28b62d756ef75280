/**
 * A refused save in an admin form (issue 16, item 5): every problem next to its field (marked
 * `aria-invalid`, the field's error line filled), all of them in the summary at the top with a
 * link to each field, the first field scrolled into view and focused. Fields are found by name;
 * a control's `data-label` names it in the sentences (src/admin/field-errors.ts words them).
 */
import { failureText, say } from './api.ts';
import { humanProblem, problemsOf } from './field-errors.ts';

/** Take every problem mark off `form` and hide its summary (before a save). */
export function clearProblems(form: HTMLFormElement): void {
  const summary = summaryOf();
  summary.hidden = true;
  summary.querySelector('[data-error-list]')!.replaceChildren();
  form.querySelectorAll('[data-error-for]').forEach((p) => (p.textContent = ''));
  form.querySelectorAll('[aria-invalid]').forEach((control) => control.removeAttribute('aria-invalid'));
}

/**
 * Show a failed save. Problems of fields go next to them and into the summary, in the form's
 * order; one that names no field of the form is said in the summary alone. Other failures are
 * said in the status region; never the API's hint of a refused field (it speaks to API clients).
 */
export function showProblems(form: HTMLFormElement, failure: unknown): void {
  const f = failure as { error?: string; code?: string; fields?: Array<{ field: string; message: string }> };
  // 412: the record changed since the page read it.
  if (/has changed since you read it/.test(f.error ?? ''))
    return say('Someone else saved this after you opened it. Nothing was saved: reload the page to see their version, then make your change again.', 'error');
  if (f.code !== 'validation_error' && f.code !== 'conflict') return say(failureText(failure), 'error');
  const controlOf = (name: string | undefined) => (name ? (form.elements.namedItem(name) as HTMLElement | null) : null);
  // In the form's order, so the summary reads top to bottom and the first one focused is the topmost.
  const place = (name: string | undefined) => {
    const control = controlOf(name);
    return control ? Array.from(form.elements).indexOf(control as HTMLInputElement) : form.elements.length;
  };
  const problems = problemsOf(f).sort((a, b) => place(a.field) - place(b.field));
  const summary = summaryOf();
  const list = summary.querySelector('[data-error-list]')!;
  let first: HTMLElement | undefined;
  for (const { field: name, message } of problems) {
    const control = controlOf(name);
    const label = (control?.dataset.label ?? name ?? '').replace(/ \(one per line\)$/, '');
    const text = name ? humanProblem(label, message) : message;
    const item = document.createElement('li');
    if (control && name) {
      control.setAttribute('aria-invalid', 'true');
      form.querySelector(`[data-error-for="${name}"]`)!.textContent = text;
      const link = Object.assign(document.createElement('a'), { href: `#${control.id}`, textContent: text });
      link.addEventListener('click', (event) => {
        event.preventDefault();
        focusField(control);
      });
      item.append(link);
      first ??= control;
    } else item.textContent = text;
    list.append(item);
  }
  const count = problems.length;
  summary.querySelector('[data-error-count]')!.textContent = count === 1 ? 'There is a problem to fix before saving' : `There are ${count} problems to fix before saving`;
  summary.hidden = false;
  say(count === 1 ? 'Not saved: 1 problem, shown next to its field.' : `Not saved: ${count} problems, shown next to their fields.`, 'error');
  if (first) focusField(first);
  else summary.focus();
}

// --- internal ---

function summaryOf(): HTMLElement {
  return document.querySelector<HTMLElement>('[data-error-summary]')!;
}

function focusField(control: HTMLElement): void {
  // A field in a hidden tab panel (the description while previewed): show its tab first.
  const panel = control.closest<HTMLElement>('[role=tabpanel][hidden]');
  if (panel) document.getElementById(panel.getAttribute('aria-labelledby') ?? '')?.click();
  control.scrollIntoView({ block: 'center' });
  control.focus({ preventScroll: true });
}
