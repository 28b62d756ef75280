/**
 * The JSON bytes of a list of records, by position: answers are assembled from them
 * (functions/http/answer.ts). They lie in at most two buffers, with where each record starts and
 * ends in typed arrays, instead of a view object and a map entry per record: at 50,000 deals and
 * 100,000 startups those were 19 MB of the heap (docs/performance.md). At load every record lies
 * in the catalog file the build wrote (record-spans.ts); after a write, the records that are not
 * in it (changed, or added) are serialised into a second buffer, in list order with a comma
 * between neighbours, as the file has them, and the others keep their bytes in the file.
 */

const COMMA = 0x2c;
const encoder = new TextEncoder();

export class RecordBytes {
  /** The built catalog file (empty when there is none), and the records serialised since. */
  readonly buffers: readonly [file: Uint8Array, serialised: Uint8Array];
  /** Record i lies in `buffers[buffer[i]]` (0: the file, 1: serialised), from `start[i]` to `end[i]`. */
  readonly buffer: Uint8Array;
  readonly start: Uint32Array;
  readonly end: Uint32Array;

  private constructor(buffers: readonly [Uint8Array, Uint8Array], buffer: Uint8Array, start: Uint32Array, end: Uint32Array) {
    // Plain Uint8Arrays, not Buffers: a view of a Buffer costs a constructor call in JavaScript,
    // which was a tenth of an uncached category answer (`copyInto`).
    this.buffers = [plain(buffers[0]), plain(buffers[1])];
    this.buffer = buffer;
    this.start = start;
    this.end = end;
  }

  /**
   * The records' bytes as they lie in `file` (`spans`: start and end of record i at 2i and
   * 2i + 1), or `undefined` when a span is not a record of a JSON list there (another file,
   * another count), in which case the caller serialises the records itself.
   */
  static inFile(file: Uint8Array, spans: readonly number[], count: number): RecordBytes | undefined {
    if (spans.length !== count * 2) return undefined;
    const start = new Uint32Array(count);
    const end = new Uint32Array(count);
    for (let i = 0; i < count; i++) {
      const [from, to] = [spans[2 * i] as number, spans[2 * i + 1] as number];
      const before = file[from - 1];
      if (!(to > from && to <= file.byteLength && file[from] === OPEN && file[to - 1] === CLOSE && (before === COMMA || before === BRACKET))) return undefined;
      start[i] = from;
      end[i] = to;
    }
    return new RecordBytes([file, EMPTY], new Uint8Array(count), start, end);
  }

  /**
   * The bytes of `records`: those of `previous` that lie in its file (the same objects) keep
   * them; the others are serialised (`JSON.stringify`), or copied when `previous` had serialised them.
   * @example RecordBytes.of(data.deals, { records: catalog.deals, bytes: catalog.dealJson })
   */
  static of(records: readonly object[], previous?: { records: readonly object[]; bytes: RecordBytes }): RecordBytes {
    const was = new Map<object, number>();
    previous?.records.forEach((record, i) => was.set(record, i));
    const buffer = new Uint8Array(records.length).fill(SERIALISED);
    const start = new Uint32Array(records.length);
    const end = new Uint32Array(records.length);
    const serialised: Uint8Array[] = [];
    records.forEach((record, i) => {
      const at = was.get(record);
      if (previous && at !== undefined && previous.bytes.buffer[at] === FILE) {
        buffer[i] = FILE;
        start[i] = previous.bytes.start[at] as number;
        end[i] = previous.bytes.end[at] as number;
      } else {
        serialised.push(previous && at !== undefined ? previous.bytes.view(at) : recordJson(record));
      }
    });
    const joined = new Uint8Array(serialised.reduce((size, bytes) => size + bytes.byteLength, Math.max(0, serialised.length - 1)));
    let next = 0;
    let k = 0;
    for (let i = 0; i < records.length; i++) {
      if (buffer[i] === FILE) continue;
      const bytes = serialised[k++] as Uint8Array;
      if (next > 0) joined[next++] = COMMA;
      joined.set(bytes, next);
      start[i] = next;
      end[i] = next += bytes.byteLength;
    }
    return new RecordBytes([previous?.bytes.buffers[FILE] ?? EMPTY, joined], buffer, start, end);
  }

  get length(): number {
    return this.start.length;
  }

  /** Record i's bytes (a view). */
  view(i: number): Uint8Array {
    return this.buffers[this.buffer[i] as 0 | 1].subarray(this.start[i], this.end[i]);
  }

  /** Copy record i's bytes into `target` at `at`; returns where they end. */
  copyInto(i: number, target: Uint8Array, at: number): number {
    target.set(this.view(i), at);
    return at + (this.end[i] as number) - (this.start[i] as number);
  }
}

/** A record's JSON as UTF-8: for a record in no list's bytes (a draft), and for lists of records serialised. */
export function recordJson(record: object): Uint8Array {
  return encoder.encode(JSON.stringify(record));
}

const FILE = 0;
const SERIALISED = 1;
const EMPTY = new Uint8Array(0);
const plain = (bytes: Uint8Array): Uint8Array => (bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
const [OPEN, CLOSE, BRACKET] = ['{', '}', '['].map((c) => c.charCodeAt(0));
