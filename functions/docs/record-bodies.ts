/**
 * The request bodies of the admin record writes in /openapi.json, made from each record's zod
 * schema so no field list is typed twice: a new record (`DealInput`, `StartupInput`: what the
 * server does not fill is required) and a change (`DealUpdate`, `StartupUpdate`: `id` or `slug`
 * names it, `null` removes a field it may go without), with the catalog's own values where the
 * server checks a field against content/categories.yaml.
 */
import type * as z from 'zod';
import { component, ref, requiring, type Json } from './openapi-kit.ts';

/** One kind of record as its write bodies describe it. */
export interface RecordBodies {
  schema: z.ZodObject;
  /** Fields the server fills when a new record leaves them out (admin-records.ts `newRecord`, `slugFor`). */
  filledOnCreate: readonly string[];
  /** Fields whose values are this catalog's, by the component that lists them (`category` → `DealCategory`). */
  catalogValues: Record<string, string>;
}

/** A new record: the fields the server does not fill are required. */
export function recordInput(bodies: RecordBodies, description: string): Json {
  const required = inputRequired(bodies).filter((name) => !bodies.filledOnCreate.includes(name));
  return { ...recordFields(bodies), required, description };
}

/** A change: `id` or `slug` names the record; `null` removes a field the record may go without. */
export function recordUpdate(bodies: RecordBodies, description: string): Json {
  const schema = recordFields(bodies);
  const required = inputRequired(bodies);
  const properties = Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => [name, required.includes(name) ? property : { anyOf: [property, { type: 'null' }] }]);
  return { ...schema, properties: Object.fromEntries(properties), anyOf: requiring(['id', 'slug']), description };
}

/**
 * The slugs a field takes in this catalog, as a component; a catalog that defines none gets a
 * plain string (every value is then refused by the server, which the description says).
 */
export function catalogSlugs(what: string, items: readonly { slug: string; name: string; scope?: string }[]): Json {
  if (items.length === 0) return { type: 'string', description: `A ${what} slug; this catalog defines none (content/categories.yaml), so every value is refused.` };
  const listed = items.map((c) => `\`${c.slug}\` (${c.name}${c.scope ? `, ${c.scope}` : ''})`).join(', ');
  return { type: 'string', enum: items.map((c) => c.slug), description: `A ${what} slug of this catalog (content/categories.yaml): ${listed}.` };
}

// --- internal ---

/** Fields a stored record must have (input side: defaulted flags are not among them). */
function inputRequired(bodies: RecordBodies): string[] {
  return (component(bodies.schema, 'input').required ?? []) as string[];
}

/** The record's properties as the server checks them: catalog values by reference, text not blank. */
function recordFields(bodies: RecordBodies): Json {
  const schema = component(bodies.schema.partial(), 'input');
  const properties = Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => {
    const values = bodies.catalogValues[name];
    return [name, values ? ref(values) : notBlank(property)];
  });
  return { ...schema, properties: Object.fromEntries(properties) };
}

/**
 * Record text fields are trimmed before their length is checked (fields.ts `text()`): a string
 * of spaces is refused, so a text with a minimum length needs a non-space character. Strings
 * with a pattern or format of their own (slugs, ids, dates, links) are left as they are.
 */
function notBlank(schema: Json): Json {
  if (schema.type === 'array' && schema.items) return { ...schema, items: notBlank(schema.items as Json) };
  if (schema.type === 'string' && typeof schema.minLength === 'number' && schema.minLength > 0 && !schema.pattern && !schema.format && !schema.enum) return { ...schema, pattern: '\\S' };
  return schema;
}
