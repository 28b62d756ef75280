/**
 * A record's `description` read from the catalog file when asked for, instead of held as a
 * string beside the file's bytes that already hold it (issue 19: at 50,000 deals and 100,000
 * startups the descriptions were 48 MB of a 166 MB heap, and the file they were parsed from
 * stays in memory for the answers' bytes). Each record becomes a copy with the same fields in
 * the same order, `description` an enumerable getter, so reading, spreading, comparing and
 * serialising a record see the same text as before. Few requests read a description (a deal's
 * Markdown page, MCP's `get_deal`, llms-full.txt); they pay a JSON.parse of it each time.
 */
interface Described {
  description?: string;
}

/**
 * For records in `file`: the record whose JSON lies from `start` to `end`, parsed. When its
 * description lies in those bytes for sure, the record is parsed with that JSON string cut out
 * (read as `""`) and becomes a copy reading it from there: the description, most of a record's
 * bytes, is never made a string at load (the 50,000-deal / 100,000-startup catalog file took
 * 1,310-1,360 ms parsed with its descriptions, 1,200-1,260 ms without; docs/performance.md). The
 * copies of one file share one getter, so records with the same fields keep sharing one shape.
 * @example const read = readingFromFile(file); deals[i] = read(start, end)
 */
export function readingFromFile(file: Buffer): (start: number, end: number) => unknown {
  const accessors = readers(file);
  return (start, end) => {
    const span = descriptionString(file, start, end);
    if (span) {
      const cut: unknown = JSON.parse(file.toString('utf8', start, span[0]) + '""' + file.toString('utf8', span[1], end));
      // The description cut out was the record's own only if nothing before it could hold an earlier one.
      if (isRecord(cut) && cut.description === '' && onlyPlainBefore(cut)) return copyReading(cut, span, accessors);
    }
    return JSON.parse(file.toString('utf8', start, end)) as unknown;
  };
}

// --- internal ---

/**
 * The first `"description":"` key in the record's bytes and the JSON string after it. JSON text
 * has a `"` inside a string only escaped, so this is a key; it is the record's own when no
 * nested object or list comes before it (`onlyPlainBefore`). Searched in the record's bytes
 * alone: a record without one must not scan the rest of the file.
 */
function descriptionString(file: Buffer, start: number, end: number): [from: number, to: number] | undefined {
  const at = file.subarray(start, end).indexOf(KEY);
  if (at < 0) return undefined;
  const key = start + at;
  if (file[key - 1] !== OPEN && file[key - 1] !== COMMA) return undefined;
  const from = key + KEY.length - 1;
  let quote = file.indexOf(QUOTE, from + 1);
  while (quote > 0 && quote < end && escaped(file, quote)) quote = file.indexOf(QUOTE, quote + 1);
  return quote > 0 && quote < end ? [from, quote + 1] : undefined;
}

/** Whether every field before `description` holds a plain value (none could hold an earlier `description` key). */
function onlyPlainBefore(record: object): boolean {
  for (const key in record) {
    if (key === 'description') return true;
    const value: unknown = record[key as keyof typeof record];
    if (typeof value === 'object' && value !== null) return false;
  }
  return false;
}

function isRecord(value: unknown): value is Described & object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const KEY = Buffer.from('"description":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const COMMA = 0x2c;
/** Where the description's JSON string starts and ends in the file: small integers, kept in the record's own slots. */
const FROM = Symbol('description from');
const TO = Symbol('description to');
const ASSIGNED_FIELDS = 12;

interface Accessors {
  get(this: object): string;
  set(this: object, value: unknown): void;
}

/** One getter and setter per file, shared by its records, so records with the same fields keep sharing one shape. */
function readers(file: Buffer): Accessors {
  return {
    get(this: object): string {
      const { [FROM]: from, [TO]: to } = this as Record<symbol, number | undefined>;
      // Only a copy made here knows where its text is; another object given this getter does not.
      if (from === undefined || to === undefined) throw new TypeError('this description is not in the catalog file');
      return JSON.parse(file.toString('utf8', from, to)) as string;
    },
    // Setting a description makes it the record's own again.
    set(this: object, value: unknown): void {
      Object.defineProperty(this, 'description', { value, writable: true, enumerable: true, configurable: true });
    },
  };
}

/**
 * The record again, field by field in its order, with `description` as the getter. A copy, not
 * the record changed in place: turning a field that is not the last into a getter puts the object
 * in V8's slow dictionary form, several times its size. The first fields are assigned, the rest
 * defined: past a dozen fields added by computed name V8 takes that form too, and defining every
 * field took 650-930 ms for 150,000 records against 250-420 ms this way.
 */
function copyReading<T extends Described>(record: T, [from, to]: [number, number], { get, set }: Accessors): T {
  const copy: Record<string, unknown> = {};
  let assigned = 0;
  for (const key in record) {
    if (key === 'description') Object.defineProperty(copy, key, { get, set, enumerable: true, configurable: true });
    // Assigning `__proto__` would set the copy's prototype; defined, it is a field as JSON.parse made it.
    else if (key !== '__proto__' && assigned++ < ASSIGNED_FIELDS) copy[key] = record[key];
    else Object.defineProperty(copy, key, { value: record[key], writable: true, enumerable: true, configurable: true });
  }
  Object.defineProperty(copy, FROM, { value: from });
  Object.defineProperty(copy, TO, { value: to });
  return copy as T;
}

/** Whether the byte at `at` follows an odd run of backslashes. */
function escaped(file: Buffer, at: number): boolean {
  let run = 0;
  while (file[at - 1 - run] === BACKSLASH) run++;
  return run % 2 === 1;
}
