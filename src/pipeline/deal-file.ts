/**
 * A deal's file in the content tree: where it lives and its text, written anew for a new
 * deal, or edited in place for a changed one so the editor's comments, key order and quoting
 * stay and only the changed fields' lines change (issue 16, item 6; front-matter-edit.ts).
 */
import { DealFrontMatterSchema, type Deal } from '../schemas/deal.ts';
import { editMarkdown, frontMatterChanges } from './front-matter-edit.ts';
import { toMarkdown } from './serialize.ts';

/** Path of a deal's file inside the content root. */
export const dealPath = (slug: string): string => `deals/${slug}.md`;

/** The order of front matter fields in a new file, and where a field added to a file goes. */
const FIELD_ORDER: readonly string[] = Object.keys(DealFrontMatterSchema.shape);

/**
 * A new deal file's text: front matter in schema order (then any other keys, which validation
 * will refuse), description as the body.
 */
export function dealFileText(deal: Deal): string {
  const { description, front } = split(deal);
  const ordered: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) ordered[key] = front[key];
  for (const [key, value] of Object.entries(front)) if (!(key in ordered)) ordered[key] = value;
  return toMarkdown(ordered, description ?? '');
}

/**
 * The text of the file `original` (which holds `before`) once it holds `after`: the fields
 * that differ are set or removed in place, and the body replaced only when the description
 * changed. A file whose front matter cannot be edited in place is written anew.
 * @example editedDealFileText(text, deal, { ...deal, title: 'New' }) // text with only its `title:` line changed
 */
export function editedDealFileText(original: string, before: Deal, after: Deal): string {
  const was = split(before);
  const now = split(after);
  const body = was.description === now.description ? {} : { body: now.description ?? '' };
  return editMarkdown(original, frontMatterChanges(was.front, now.front), { order: FIELD_ORDER, ...body }) ?? dealFileText(after);
}

// --- internal ---

/** The front matter fields and the body of a deal (the slug is the file name). */
function split(deal: Deal): { front: Record<string, unknown>; description: string | undefined } {
  const { description, slug: _slug, ...front } = deal as Deal & Record<string, unknown>;
  return { front, description: typeof description === 'string' ? description : undefined };
}
