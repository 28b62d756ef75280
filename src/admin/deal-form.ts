/**
 * The admin record forms' fields (issue 16, items 4 and 5), grouped as editors think of a deal
 * (basics, value, eligibility, links, placement) or a startup for sale (basics, the sale, links,
 * placement). The help under each field and whether it is required come from the record's JSON
 * Schema (src/schemas/json-schemas.ts, made from the zod schema's `.describe()` texts), so the
 * form, the editors' schema and the OpenAPI document say the same.
 */
import { escapeHtml } from '../escape-html.ts';
import { contentJsonSchemas } from '../schemas/json-schemas.ts';
import type { DealInput } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';

/** How a field is edited: one line, a link, one item per line, Markdown, a choice, several choices (tick boxes), a date, a number, a tick box. */
export type Control = 'text' | 'url' | 'lines' | 'markdown' | 'select' | 'choices' | 'date' | 'number' | 'checkbox';

export interface FormField {
  name: string;
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

/** A form's groups as written here: each field's name (of record `R`), label and control. */
type Groups<R> = ReadonlyArray<{ legend: string; fields: ReadonlyArray<[keyof R & string, string, Control]> }>;

/** Every field the deal form edits, in its group; the labels are the form's own words. */
const GROUPS: Groups<DealInput> = [
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
  {
    legend: 'Value',
    fields: [
      ['value', 'Value', 'text'],
      ['valueUsd', 'Value in US dollars', 'number'],
      ['savings', 'Savings', 'text'],
      ['expiryDate', 'Expiry date', 'date'],
    ],
  },
  {
    legend: 'Program facts (accelerators, incubators, grants)',
    fields: [
      ['equityPercent', 'Equity taken (%)', 'number'],
      ['stages', 'Stages', 'choices'],
      ['regions', 'Regions', 'choices'],
      ['nextDeadline', 'Next deadline', 'date'],
    ],
  },
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
      ['sourceUrl', 'Source (where the facts were checked)', 'url'],
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
      ['lastVerified', 'Last verified', 'date'],
    ],
  },
];

/** Every field the startup form edits, in its group. */
const STARTUP_GROUPS: Groups<Startup> = [
  {
    legend: 'Basics',
    fields: [
      ['name', 'Name', 'text'],
      ['category', 'Category', 'select'],
      ['summary', 'Summary', 'text'],
      ['description', 'Description', 'markdown'],
      ['country', 'Country (two letters, like US)', 'text'],
    ],
  },
  {
    legend: 'The sale',
    fields: [
      ['askingPrice', 'Asking price (US dollars)', 'number'],
      ['askingPriceDisplay', 'Asking price as shown', 'text'],
      ['revenue', 'Revenue (US dollars)', 'number'],
      ['revenueDisplay', 'Revenue as shown', 'text'],
      ['source', 'Marketplace', 'select'],
    ],
  },
  {
    legend: 'Links',
    fields: [
      ['listingUrl', 'Listing URL', 'url'],
      ['website', 'Website', 'url'],
      ['sourceUrl', 'Source (where the facts were checked)', 'url'],
      ['logoUrl', 'Logo URL', 'url'],
      ['slug', 'Slug', 'text'],
    ],
  },
  {
    legend: 'Placement',
    fields: [
      ['forSale', 'For sale', 'checkbox'],
      ['featured', 'Sponsored', 'checkbox'],
      ['lastVerified', 'Last verified', 'date'],
    ],
  },
];

/** Fields a save fills in when left empty, though the stored record needs them. */
const FILLED_BY_SAVE = new Set(['slug', 'id']);

/**
 * The deal form's groups with each field's help text and required mark from the deal JSON Schema.
 * @example dealFormGroups()[0]?.fields[0] // { name: 'title', label: 'Title', control: 'text', required: true, help: 'What the deal is…' }
 */
export const dealFormGroups = (): FormGroup[] => schemaGroups('deal.json', GROUPS);

/**
 * The startup form's groups, from the startup JSON Schema.
 * @example startupFormGroups()[0]?.fields[0]?.name // 'name'
 */
export const startupFormGroups = (): FormGroup[] => schemaGroups('startup.json', STARTUP_GROUPS);

// --- internal ---

function schemaGroups<R>(file: 'deal.json' | 'startup.json', groups: Groups<R>): FormGroup[] {
  const schema = contentJsonSchemas()[file] as { properties: Record<string, { description?: string }>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return groups.map(({ legend, fields }) => ({
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

/** Description text as HTML: escaped, its `backtick` spans as code. */
function helpHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}
