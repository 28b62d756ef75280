/**
 * Text gathered into UTF-8 chunks of about a MiB: how the build writes files of hundreds of MB
 * (the catalog, lunr's index) without ever holding one string of all of it, and without a
 * write per record.
 */
const CHUNK_BYTES = 1024 * 1024;
/** Room past a chunk for the text that fills it; a longer text grows the buffer. */
const SLACK_BYTES = 256 * 1024;

export class Utf8Chunks {
  /** Bytes added so far, in all chunks: the offset at which the next text starts. */
  offset = 0;
  /**
   * Text is encoded into this buffer as it is added: no list of strings joined and encoded
   * again at each flush, and no separate pass to count each text's bytes (that took 45 % of
   * writing lunr's index; docs/performance.md, thirteenth sitting).
   */
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES + SLACK_BYTES);
  private used = 0;

  add(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4).
    const room = this.used + text.length * 3;
    if (room > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(room, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    const length = this.buffer.write(text, this.used, 'utf8');
    this.used += length;
    this.offset += length;
  }

  /** Whether the pending text makes a chunk. */
  get full(): boolean {
    return this.used >= CHUNK_BYTES;
  }

  /** The pending text as one chunk (its own bytes: later text goes into a new buffer). */
  flush(): Buffer {
    const chunk = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(CHUNK_BYTES + SLACK_BYTES);
    this.used = 0;
    return chunk;
  }
}

/**
 * `JSON.stringify(value)` as UTF-8 chunks of about a MiB: arrays and plain objects down to
 * `levels` deep are written member by member, anything deeper (or with a `toJSON`) by
 * `JSON.stringify` whole, so no string is ever larger than one member. `item`, if given, learns
 * the byte span of each item of an array written member by member, with the key the array is
 * under (undefined for an array in an array or at the top).
 * @example Buffer.concat([...jsonChunks(postings, 3)]).toString() === JSON.stringify(postings) // true
 */
export function* jsonChunks(value: unknown, levels: number, item?: (key: string | undefined, start: number, end: number) => void): Generator<Buffer> {
  const out = new Utf8Chunks();
  const opened = (member: unknown, depth: number): boolean =>
    depth < levels && typeof member === 'object' && member !== null && (Array.isArray(member) || typeof (member as { toJSON?: unknown }).toJSON !== 'function');
  function* write(member: object, depth: number, key?: string): Generator<Buffer> {
    if (Array.isArray(member)) {
      out.add('[');
      for (let i = 0; i < member.length; i++) {
        if (i > 0) out.add(',');
        const start = out.offset;
        const entry: unknown = member[i];
        if (opened(entry, depth + 1)) yield* write(entry as object, depth + 1);
        // An array holds `null` where an object would leave a member out.
        else out.add(JSON.stringify(entry) ?? 'null');
        item?.(key, start, out.offset);
        if (out.full) yield out.flush();
      }
      out.add(']');
    } else {
      out.add('{');
      let first = true;
      for (const [name, field] of Object.entries(member)) {
        const open = opened(field, depth + 1);
        const text = open ? '' : (JSON.stringify(field) as string | undefined);
        // JSON.stringify leaves out members it has no text for (undefined, functions).
        if (text === undefined) continue;
        out.add(`${first ? '' : ','}${JSON.stringify(name)}:`);
        first = false;
        if (open) yield* write(field as object, depth + 1, name);
        else out.add(text);
        if (out.full) yield out.flush();
      }
      out.add('}');
    }
  }
  if (opened(value, 0)) yield* write(value as object, 0);
  else out.add(JSON.stringify(value) ?? '');
  yield out.flush();
}
