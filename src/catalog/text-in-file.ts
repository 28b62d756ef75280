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
 * For records parsed from `file`: the record, or when it has a description that lies in its
 * bytes (`start` to `end`) for sure, a copy reading it from there. The copies of one file share
 * one getter, so records with the same fields keep sharing one shape.
 * @example const reading = readingFromFile(file); deals[i] = reading(JSON.parse(text), start, end)
 */
export function readingFromFile(file: Buffer): <T extends Described>(record: T, start: number, end: number) => T {
  const accessors = readers(file);
  return (record, start, end) => {
    if (typeof record.description !== 'string') return record;
    const span = descriptionSpan(record, file, start, end);
    return span ? copyReading(record, span, accessors) : record;
  };
}

/**
 * Where the JSON string of `record.description` lies in `file`, between `start` and `end` (the
 * record's bytes), or undefined when it is not sure. JSON text has a `"` inside a string only
 * escaped, so `"description":"` is a key; with only plain values before it in the record, no
 * nested object can hold an earlier one, and the first is the record's own.
 */
export function descriptionSpan(record: object, file: Buffer, start: number, end: number): [from: number, to: number] | undefined {
  for (const key in record) {
    if (key === 'description') break;
    const value: unknown = record[key as keyof typeof record];
    if (typeof value === 'object' && value !== null) return undefined;
  }
  const key = file.indexOf(KEY, start);
  if (key < 0 || key >= end || (file[key - 1] !== OPEN && file[key - 1] !== COMMA)) return undefined;
  const from = key + KEY.length - 1;
  let quote = file.indexOf(QUOTE, from + 1);
  while (quote > 0 && quote < end && escaped(file, quote)) quote = file.indexOf(QUOTE, quote + 1);
  return quote > 0 && quote < end ? [from, quote + 1] : undefined;
}

// --- internal ---

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
