/**
 * A list of records parsed from the catalog file when first read, or a slice at a time while the
 * server is idle, rather than all before it can answer (issue 19: parsing the 150,000 records of
 * 50,000 deals and 100,000 startups took about 1.2 s of a 2.6 s start, and lists, searches and
 * category filters are answered from the records' bytes and facts, not from the records). What the
 * catalog derives from every record at start is read from the build's summaries instead
 * (record-spans.ts `RecordSummaries`).
 */
export class RecordsInFile<T> {
  /** Let go once every record is parsed, and with it what it reads from (the spans). */
  #parse: ((position: number) => T) | undefined;
  readonly #count: number;
  readonly #records: T[] = [];

  /** `parse(i)` gives record i; it is called once per record, in order. */
  constructor(count: number, parse: (position: number) => T) {
    this.#count = count;
    this.#parse = parse;
  }

  /** Every record, those not parsed yet parsed now: the same array on every call. */
  all(): T[] {
    this.#parseUntil(this.#count);
    return this.#records;
  }

  get done(): boolean {
    return this.#records.length === this.#count;
  }

  /**
   * Parse the rest a slice at a time, the event loop free between slices, so that requests are
   * answered meanwhile (one that needs the records parses the rest itself, through `all`).
   */
  async parseInTurns(slice = PARSE_SLICE): Promise<void> {
    while (!this.done) {
      await new Promise((resolve) => setImmediate(resolve));
      this.#parseUntil(Math.min(this.#count, this.#records.length + slice));
    }
  }

  #parseUntil(end: number): void {
    const records = this.#records;
    const parse = this.#parse;
    if (parse === undefined) return;
    while (records.length < end) records.push(parse(records.length));
    if (this.done) this.#parse = undefined;
  }
}

/** Records parsed per turn: about 10 ms of work (8 µs a record measured at 5,000 deals). */
const PARSE_SLICE = 1000;
