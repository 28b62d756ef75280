/**
 * Members' saved deals and startups (issue 18, item 3): what a browser sends to save or remove
 * one, and what GET /api/v1/me/saved answers. The OpenAPI document publishes them under the
 * names in `REQUEST_SCHEMAS` and `ANSWER_SCHEMAS`.
 */
import * as z from 'zod';
import { recordId } from './fields.ts';

export const SAVED_KINDS = ['deal', 'startup'] as const;
export type SavedKind = (typeof SAVED_KINDS)[number];

/** How many items one account keeps at most: beyond, a save is refused (400 `conflict`) until some are removed. */
export const MAX_SAVED_ITEMS = 500;

/** POST /api/v1/me/saved, as JSON or the fields of the save buttons' form. */
export const SavedItemRequestSchema = z.object({
  kind: z.enum(SAVED_KINDS).describe('What is saved: a `deal` (programs too) or a `startup` for sale.'),
  id: recordId().describe("The record's `id` (not its slug): a saved item follows the record through a rename."),
  action: z.enum(['save', 'remove']).default('save').describe('`remove` takes the item off the list (what an HTML form sends, since a form cannot DELETE).'),
  next: z.string().max(512).optional().describe('Form posts: the page of the site to go back to (a path starting with one `/`); anything else is ignored.'),
});

export const SavedStateSchema = z.enum(['live', 'expired', 'removed']);

export const SavedItemSchema = z.looseObject({
  kind: z.enum(SAVED_KINDS),
  id: z.string(),
  savedAt: z.string().describe('When it was saved (ISO 8601).'),
  state: SavedStateSchema.describe('`live`; `expired`: a deal whose status is `expired` or whose expiry date has passed; `removed`: no longer in the catalog.'),
  title: z.string().describe('The title (a startup: its name) as served now; for a removed record, as it was when saved.'),
  slug: z.string().describe('The slug as served now; for a removed record, as it was when saved.'),
  url: z.string().optional().describe('The page of the record (absent when removed).'),
  status: z.string().optional().describe("A deal's status as served now."),
  expiryDate: z.string().optional().describe("A deal's expiry date, when it has one."),
  forSale: z.boolean().optional().describe('A startup: whether it is still for sale.'),
});

export const SavedItemsSchema = z.looseObject({
  success: z.literal(true),
  items: z.array(SavedItemSchema).describe('Newest first.'),
  ids: z.looseObject({ deal: z.array(z.string()), startup: z.array(z.string()) }).describe('The saved ids by kind, for the pages to mark their save buttons.'),
  total: z.number().int(),
  max: z.number().int().describe('How many items an account keeps at most.'),
});

export const SavedChangeSchema = z.looseObject({
  success: z.literal(true),
  kind: z.enum(SAVED_KINDS),
  id: z.string(),
  saved: z.boolean().describe('Whether the item is on the list now.'),
  total: z.number().int().describe('How many items the list holds now.'),
});

export type SavedItemRequest = z.output<typeof SavedItemRequestSchema>;
export type SavedItem = z.infer<typeof SavedItemSchema>;
export type SavedItems = z.infer<typeof SavedItemsSchema>;
