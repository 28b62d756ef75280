/**
 * Reading and filling an admin record form (deal or startup; src/components/admin/RecordFields.astro)
 * in the browser: tick boxes as booleans, `data-lines` as lists (one item a line), `data-choices`
 * groups as the list of their ticked values, `data-number` as numbers (text that is not one is
 * sent as it is, for the API to refuse by name).
 */

/** Put `record`'s values into the form's fields of the same names (fields it lacks are emptied). */
export function fillForm(form: HTMLFormElement, record: Record<string, unknown>): void {
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    if (!element.name) continue;
    const value = record[element.name];
    if ('choices' in element.dataset) for (const box of choiceBoxes(element)) box.checked = Array.isArray(value) && value.includes(box.value);
    else if (element.type === 'checkbox') element.checked = value === true;
    else element.value = Array.isArray(value) ? value.join('\n') : String(value ?? '');
  }
}

/**
 * The form's values as a save sends them. An empty field is `null` when `editing` (removing the
 * stored value), left out otherwise.
 * @example formValues(form, true) // { name: 'Acme', revenue: 120000, summary: null, featured: false, … }
 */
export function formValues(form: HTMLFormElement, editing: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const empty = editing ? null : undefined;
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    if (!element.name) continue;
    const text = (element.value ?? '').trim(); // a fieldset (data-choices) has no value
    if (element.type === 'checkbox') out[element.name] = element.checked;
    else if ('choices' in element.dataset) {
      const ticked = choiceBoxes(element)
        .filter((box) => box.checked)
        .map((box) => box.value);
      out[element.name] = ticked.length ? ticked : empty;
    } else if ('lines' in element.dataset) {
      const items = element.value
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
      out[element.name] = items.length ? items : empty;
    } else if (text === '') out[element.name] = empty;
    else if ('number' in element.dataset) out[element.name] = /^\d+(\.\d+)?$/.test(text.replaceAll(',', '')) ? Number(text.replaceAll(',', '')) : text;
    else out[element.name] = text;
  }
  return out;
}

// --- internal ---

/** The tick boxes of a `data-choices` group (unnamed: the group's name is the field's). */
function choiceBoxes(group: Element): HTMLInputElement[] {
  return Array.from(group.querySelectorAll<HTMLInputElement>('input[type=checkbox]'));
}
