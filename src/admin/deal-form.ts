/**
 * The admin deal form's fields (issue 16, item 5), grouped as editors think of a deal: basics,
 * value, eligibility, links, placement. The help under each field and whether it is required
 * come from the deal's JSON Schema (src/schemas/json-schemas.ts, made from the zod schema's
 * `.describe()` texts), so the form, the editors' schema and the OpenAPI document say the same.
 */
import { escapeHtml } from '../escape-html.ts';
import { contentJsonSchemas } from '../schemas/json-schemas.ts';
import type { DealInput } from '../schemas/deal.ts';

/** How a field is edited: one line, a link, one item per line, Markdown, a choice, a date, a tick box. */
export type Control = 'text' | 'url' | 'lines' | 'markdown' | 'select' | 'date' | 'checkbox';

export interface FormField {
  name: keyof DealInput & string;
  label: string;
  control: Control;
  required: boolean;
  /** The schema's description as HTML (its `code` spans kept), or empty. */
  help: string;
}

export interface FormGroup {
  legend: string;
  fields: FormField[];
}

/** Every field the form edits, in its group; the labels are the form's own words. */
const GROUPS: ReadonlyArray<{ legend: string; fields: ReadonlyArray<[FormField['name'], string, Control]> }> = [
  {
    legend: 'Basics',
    fields: [
      ['title', 'Title', 'text'],
      ['provider', 'Provider', 'text'],
      ['category', 'Category', 'select'],
      ['subcategory', 'Subcategory', 'text'],
      ['shortDescription', 'Short description', 'text'],
      ['description', 'Description', 'markdown'],
      ['tags', 'Tags (one per line)', 'lines'],
    ],
  },
  { legend: 'Value', fields: [['value', 'Value', 'text'], ['savings', 'Savings', 'text'], ['expiryDate', 'Expiry date', 'date']] },
  {
    legend: 'Eligibility',
    fields: [
      ['eligibility', 'Eligibility (one per line)', 'lines'],
      ['requirements', 'Requirements (one per line)', 'lines'],
      ['difficulty', 'Difficulty', 'select'],
      ['timeToApply', 'Time to apply', 'text'],
    ],
  },
  {
    legend: 'Links',
    fields: [
      ['applicationUrl', 'Application URL', 'url'],
      ['providerWebsite', 'Provider website', 'url'],
      ['logoUrl', 'Logo URL', 'url'],
      ['slug', 'Slug', 'text'],
    ],
  },
  {
    legend: 'Placement',
    fields: [
      ['status', 'Status', 'select'],
      ['featured', 'Sponsored', 'checkbox'],
      ['recommended', 'Editor’s pick', 'checkbox'],
      ['verified', 'Verified', 'checkbox'],
    ],
  },
];

/** Fields a save fills in when left empty, though the stored deal needs them. */
const FILLED_BY_SAVE = new Set(['slug', 'id']);

/**
 * The form's groups with each field's help text and required mark from the deal JSON Schema.
 * @example dealFormGroups()[0]?.fields[0] // { name: 'title', label: 'Title', control: 'text', required: true, help: 'What the deal is…' }
 */
export function dealFormGroups(): FormGroup[] {
  const schema = contentJsonSchemas()['deal.json'] as { properties: Record<string, { description?: string }>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return GROUPS.map(({ legend, fields }) => ({
    legend,
    fields: fields.map(([name, label, control]) => ({
      name,
      label,
      control,
      required: required.has(name) && !FILLED_BY_SAVE.has(name) && control !== 'checkbox',
      help: helpHtml(schema.properties[name]?.description ?? ''),
    })),
  }));
}

// --- internal ---

/** Description text as HTML: escaped, its `backtick` spans as code. */
function helpHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}
