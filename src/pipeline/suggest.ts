/**
 * "Did you mean" for content problems (issue 16, item 7): the allowed value, category or field
 * name nearest to what was written, by edit distance (`fastest-levenshtein`), when it is near
 * enough to be the one meant (`sass-discounts` → `saas-discounts`, `titel` → `title`).
 */
import { distance } from 'fastest-levenshtein';
import type * as z from 'zod';

/**
 * `; did you mean `x`?` for the candidate nearest to `value`, or nothing when none is near.
 * Case does not count (`Active` → `active`).
 * @example didYouMean('sass-discounts', ['cloud-credits', 'saas-discounts']) // '; did you mean `saas-discounts`?'
 */
export function didYouMean(value: unknown, candidates: readonly string[]): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_COMPARED) return '';
  const written = value.toLowerCase();
  // About one edit in three characters (`hrad` → `hard` and `titel` → `title` are 2 edits, at
  // most 3), none for one or two characters (only their case): further is another word.
  let best = (written.length <= 2 ? 0 : Math.min(3, Math.ceil(written.length / 3))) + 1;
  let found: string | undefined;
  for (const candidate of candidates) {
    if (candidate === value) return '';
    const d = distance(written, candidate.toLowerCase());
    if (d < best) {
      best = d;
      found = candidate;
    }
  }
  return found === undefined ? '' : `; did you mean \`${found}\`?`;
}

/**
 * The field names a zod schema allows at `path` (through objects, lists, records and optional,
 * default or piped values), for suggesting a field name; empty where it allows none by name.
 * @example fieldNamesAt(DealSchema, []) // ['id', 'slug', 'title', …]
 */
export function fieldNamesAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  let node: Def | undefined = unwrap(schema);
  for (const key of path) {
    const next: z.core.$ZodType | undefined = node?.type === 'object' ? node.shape?.[String(key)] : node?.type === 'array' ? node.element : node?.type === 'record' ? node.valueType : undefined;
    node = next && unwrap(next);
  }
  return node?.type === 'object' && node.shape ? Object.keys(node.shape) : [];
}

// --- internal ---

/** Longer text is no typo of a short name, and comparing it would cost for nothing. */
const MAX_COMPARED = 200;

/** The parts of a zod definition walked here. */
interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
}

/** The definition under optional, nullable, default and pipe wrappers. */
function unwrap(schema: z.core.$ZodType): Def {
  let def = schema._zod.def as unknown as Def;
  for (let depth = 0; depth < 20; depth++) {
    const inner = def.type === 'pipe' ? def.in : def.innerType;
    if (!inner) break;
    def = inner._zod.def as unknown as Def;
  }
  return def;
}
