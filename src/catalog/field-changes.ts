/** What changed between two versions of a record, field by field (the admin's history). */
import type { FieldChange } from '../schemas/answers.ts';

/**
 * Every field whose value differs between `before` and `after` (compared as JSON), the fields
 * named in `order` first in that order, then any others alphabetically. A field only one side
 * has is listed with only that side's value.
 * @example fieldChanges({ title: 'A' }, { title: 'B', tags: ['x'] }, ['title', 'tags']) // [{ field: 'title', from: 'A', to: 'B' }, { field: 'tags', to: ['x'] }]
 */
export function fieldChanges(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>, order: readonly string[]): FieldChange[] {
  const rank = new Map(order.map((field, i) => [field, i]));
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort((a, b) => (rank.get(a) ?? order.length) - (rank.get(b) ?? order.length) || (a < b ? -1 : a > b ? 1 : 0));
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const from = before[field];
    const to = after[field];
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    changes.push({ field, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) });
  }
  return changes;
}
