/**
 * Text gathered into UTF-8 chunks of about a MiB: how the build writes files of hundreds of MB
 * (the catalog, lunr's index) without ever holding one string of all of it, and without a
 * write per record.
 */
const CHUNK_BYTES = 1024 * 1024;

export class Utf8Chunks {
  /** Bytes added so far, in all chunks: the offset at which the next text starts. */
  offset = 0;
  private pieces: string[] = [];
  private pending = 0;

  add(text: string): void {
    this.pieces.push(text);
    const length = Buffer.byteLength(text);
    this.offset += length;
    this.pending += length;
  }

  /** Whether the pending text makes a chunk. */
  get full(): boolean {
    return this.pending >= CHUNK_BYTES;
  }

  /** The pending text as one chunk. */
  flush(): Buffer {
    const chunk = Buffer.from(this.pieces.join(''));
    this.pieces = [];
    this.pending = 0;
    return chunk;
  }
}
