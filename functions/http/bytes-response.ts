/**
 * A Response whose body is bytes the app already holds (answers, stored answers, files).
 *
 * Why not `new Response(bytes)`: that copies the bytes (measured on Node 24: 62 µs for 2 KB,
 * 37 ms for the 4.3 MB full list), and any ReadableStream costs 5–7 µs to create, which under
 * load was the largest cost of a cached answer (bench case (b), search, cache on: 8.3k req/s
 * with a one-chunk stream per response, 10.3k without; see docs/performance.md). So the body is
 * kept as bytes: adapters write `payload` as it is, and a stream is made only for a consumer
 * that asks for `body` (tests, serverless platforms). Every Body method answers as a Response
 * given the same bytes would.
 *
 * Its header fields are kept in a plain object until someone reads `headers`: the steps every
 * request passes set about fifteen fields, and undici's `Headers` costs about 1 µs per set and a
 * sort per read, a quarter of the CPU time of a cached answer (profiled in docs/performance.md).
 * An object rather than a `Map`: a stored answer's fields are copied with one spread (0.08 µs
 * for fifteen fields, against 1.1 µs for a Map made from them) and handed to the adapter as
 * they are. The steps and the Node adapter use `setHeader`, `appendHeader`, `hasHeader` and
 * `headerFields`, which write and read the object; anything else reading `headers` gets a real
 * `Headers` holding the same fields.
 */
export class BytesResponse extends Response {
  /** The body, as sent (never for a 204 or 304). */
  readonly payload: Payload;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;
  #read = false;
  /** Lower-case name → value, until `headers` is read; then `undefined` and the real `Headers` holds them. */
  #fields: Fields | undefined;

  constructor(payload: Payload, init: { status: number; statusText?: string; headers?: Record<string, string> | Headers }) {
    const { headers, ...rest } = init;
    const record = headers !== undefined && !(headers instanceof Headers) ? headers : undefined;
    super(null, record ? rest : init);
    this.payload = payload;
    if (record) {
      const fields: Fields = {};
      for (const name in record) put(fields, checkedName(name), checkedValue(record[name] as string));
      this.#fields = fields;
    }
  }

  override get headers(): Headers {
    const headers = super.headers;
    if (this.#fields) {
      for (const name of Object.keys(this.#fields)) headers.set(name, this.#fields[name] as string);
      this.#fields = undefined;
    }
    return headers;
  }

  /**
   * A response whose fields were checked before (the answer cache stores them as `headerFields`
   * gave them): skips the per-field checks, which were most of a cached answer's header cost.
   */
  static withCheckedFields(payload: Payload, status: number, fields: Record<string, string>): BytesResponse {
    const response = new BytesResponse(payload, { status });
    response.#fields = { ...fields };
    return response;
  }

  /** The field map while no one has read `headers` (for the helpers below). */
  static fields(response: Response): Fields | undefined {
    return response instanceof BytesResponse ? response.#fields : undefined;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    if (this.#stream) return this.#stream;
    // A run at each pull, as the reader asks: runs that are copied are made one at a time.
    const runs = runsOf(this.payload)[Symbol.iterator]();
    this.#stream = new ReadableStream(
      {
        pull: (controller) => {
          const next = runs.next();
          // Payloads are never on a SharedArrayBuffer; lib.dom types stream chunks as ArrayBuffer views.
          if (next.done) controller.close();
          else controller.enqueue(next.value as Uint8Array<ArrayBuffer>);
        },
      },
      { highWaterMark: 0 },
    );
    return this.#stream;
  }

  override get bodyUsed(): boolean {
    return this.#read || (this.#stream?.locked ?? false);
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return (await this.#take()).slice();
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.#take()).slice().buffer;
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(await this.#take());
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  override async blob(): Promise<Blob> {
    return new Blob([(await this.#take()).slice()], { type: this.headers.get('content-type') ?? '' });
  }

  override async formData(): Promise<FormData> {
    return new Response((await this.#take()).slice(), { headers: this.headers }).formData();
  }

  override clone(): BytesResponse {
    if (this.bodyUsed) throw new TypeError('Response.clone: the body has already been read');
    return new BytesResponse(this.payload, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) });
  }

  /** The bytes, once, as reading a body does; through the stream if one was handed out. */
  async #take(): Promise<Uint8Array> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#read = true;
    return this.#stream ? new Uint8Array(await new Response(this.#stream).arrayBuffer()) : payloadBytes(this.payload);
  }
}

/**
 * A body sent as runs of bytes one after the other, never joined in one piece: a huge list
 * answer made of stretches of the built catalog file it was read from, so the full lists at
 * 150,000 records hold no second copy of 100 MB of records; or a huge list of scattered records
 * (a filter matching thousands), copied into small pieces only as a writer takes them (answer.ts
 * `assembledList`), so an uncached answer of megabytes never lies in memory whole.
 */
export class ByteRuns {
  readonly byteLength: number;
  /**
   * Whether `pieces` copies as it goes, each piece new: a writer should then take one piece
   * at a time, as the socket drains, rather than queue them all (which would hold the whole
   * answer again). Otherwise the pieces are views of bytes held anyway.
   */
  readonly copies: boolean;
  /** Makes the pieces, each `pieceBytes` long but the last (runs held already ignore it). */
  readonly #make: (pieceBytes: number) => Iterable<Uint8Array>;

  /** Runs held already, or `byteLength` bytes in all made as they are read by `make` (called once per reading). */
  constructor(runs: readonly Uint8Array[]);
  constructor(byteLength: number, make: (pieceBytes: number) => Iterable<Uint8Array>);
  constructor(runsOrLength: readonly Uint8Array[] | number, make?: (pieceBytes: number) => Iterable<Uint8Array>) {
    if (typeof runsOrLength === 'number') {
      this.byteLength = runsOrLength;
      this.copies = true;
      this.#make = make as (pieceBytes: number) => Iterable<Uint8Array>;
    } else {
      this.byteLength = runsOrLength.reduce((total, run) => total + run.byteLength, 0);
      this.copies = false;
      this.#make = () => runsOrLength;
    }
  }

  /** The runs, in order: pieces of PIECE_BYTES when they are copied. */
  pieces(): Iterable<Uint8Array> {
    return this.#make(PIECE_BYTES);
  }

  /** The bytes in one piece: runs joined, or the copy made in one piece of the whole length. */
  whole(): Uint8Array {
    if (!this.copies) return Buffer.concat([...this.#make(PIECE_BYTES)], this.byteLength);
    for (const only of this.#make(this.byteLength)) return only;
    return new Uint8Array(0);
  }
}

/** How long the pieces of an answer copied as it is sent are (the last one shorter). */
const PIECE_BYTES = 64 * 1024;

/**
 * Memory for a piece of `bytes`: for a piece of PIECE_BYTES, one given back once written when
 * there is one. Pieces left to the garbage collector are freed only at its next run, and the
 * allocator keeps what they took: at 5,000 deals, uncached answers of 621 KB left the server
 * 60 MB larger after the load (docs/performance.md). Other lengths (the last piece, an answer
 * made whole) are allocated as any buffer.
 */
export function takePiece(bytes: number): Uint8Array {
  if (bytes !== PIECE_BYTES) return Buffer.allocUnsafe(bytes);
  const piece = sparePieces.pop() ?? Buffer.allocUnsafeSlow(PIECE_BYTES);
  handedOut.add(piece.buffer);
  return piece;
}

/**
 * A piece `takePiece` gave, written and no longer read by anyone: kept for the next one. Anything
 * else is left alone, so a buffer still held elsewhere is never handed out again.
 */
export function givePieceBack(piece: Uint8Array): void {
  if (!handedOut.delete(piece.buffer)) return;
  if (sparePieces.length < MOST_SPARE_PIECES) sparePieces.push(Buffer.from(piece.buffer, 0, PIECE_BYTES));
}

/** Pieces written and given back, ready for the next answer; at most MOST_SPARE_PIECES (8 MiB) are kept. */
const sparePieces: Buffer[] = [];
const MOST_SPARE_PIECES = 128;
/** The memory of every piece handed out and not given back yet. */
const handedOut = new WeakSet<ArrayBufferLike>();

/** A body the app holds: bytes, or runs of bytes. */
export type Payload = Uint8Array | ByteRuns;

/** The bytes of a payload in one piece (a copy, for runs: for compression, or a reader of the body). */
export function payloadBytes(payload: Payload): Uint8Array {
  return payload instanceof ByteRuns ? payload.whole() : payload;
}

/** The pieces of a payload, in order. */
function runsOf(payload: Payload): Iterable<Uint8Array> {
  return payload instanceof ByteRuns ? payload.pieces() : [payload];
}

/** Set a header field, as `response.headers.set` does. */
export function setHeader(response: Response, name: string, value: string): void {
  const fields = BytesResponse.fields(response);
  if (fields) put(fields, checkedName(name), checkedValue(value));
  else response.headers.set(name, value);
}

/**
 * Header fields checked once, for responses that carry the same ones every time: lower-case
 * names and trimmed values, refused as `Headers` would refuse them.
 */
export function checkedFields(record: Record<string, string>): [string, string][] {
  return Object.entries(record).map(([name, value]) => [checkedName(name), checkedValue(value)]);
}

/** Set fields that `checkedFields` made, without checking them again. */
export function setCheckedFields(response: Response, checked: readonly (readonly [string, string])[]): void {
  const fields = BytesResponse.fields(response);
  for (const [name, value] of checked) {
    if (fields) put(fields, name, value);
    else response.headers.set(name, value);
  }
}

/** Add a value to a header field (joined with `, `), as `response.headers.append` does. */
export function appendHeader(response: Response, name: string, value: string): void {
  const fields = BytesResponse.fields(response);
  if (!fields) return response.headers.append(name, value);
  const key = checkedName(name);
  if (key === 'set-cookie') throw new TypeError('appendHeader: Set-Cookie fields are set on the Headers object');
  const previous = get(fields, key);
  put(fields, key, previous === undefined ? checkedValue(value) : `${previous}, ${checkedValue(value)}`);
}

/** Whether a header field is present, as `response.headers.has` says. */
export function hasHeader(response: Response, name: string): boolean {
  const fields = BytesResponse.fields(response);
  return fields ? Object.hasOwn(fields, name.toLowerCase()) : response.headers.has(name);
}

/**
 * Every header field, for an adapter to write: lower-case names, `set-cookie` apart as a list.
 * @example const { fields, cookies } = headerFields(response)
 */
export function headerFields(response: Response): { fields: Record<string, string>; cookies: string[] } {
  const own = BytesResponse.fields(response);
  if (own) {
    const fields = { ...own };
    const cookie = get(own, 'set-cookie');
    if (cookie === undefined) return { fields, cookies: [] };
    delete fields['set-cookie'];
    return { fields, cookies: [cookie] };
  }
  const fields: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') fields[name] = value;
  });
  return { fields, cookies: response.headers.getSetCookie() };
}

// --- internal ---

/** Header fields by lower-case name: own properties only (a name can be `constructor` or `__proto__`). */
type Fields = Record<string, string>;

function get(fields: Fields, name: string): string | undefined {
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}

function put(fields: Fields, name: string, value: string): void {
  // Assigning `__proto__` would set the object's prototype instead of a field.
  if (name === '__proto__') Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
  else fields[name] = value;
}

/** RFC 9110 field names (tokens); lower-cased as `Headers` keeps them. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A value `Headers` keeps as it is: visible ASCII with spaces inside, none at the edges. */
const PLAIN_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
/** Leading and trailing HTTP white space, removed from values as `Headers` does. */
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function checkedName(name: string): string {
  const known = checkedNames.get(name);
  if (known !== undefined) return known;
  if (!TOKEN.test(name)) throw new TypeError(`Headers: ${JSON.stringify(name)} is an invalid header name.`);
  const lower = name.toLowerCase();
  if (checkedNames.size < MOST_CHECKED_NAMES) checkedNames.set(name, lower);
  return lower;
}

/**
 * Field names checked before, as spelt, lower-cased: the app sets the same score of names on
 * every answer. At most MOST_CHECKED_NAMES, so names from elsewhere cannot grow it.
 */
const checkedNames = new Map<string, string>();
const MOST_CHECKED_NAMES = 256;

/** The value as `Headers` stores it; refused, as `Headers` does, when it holds NUL, CR or LF or is not a byte string. */
function checkedValue(value: string): string {
  // Most values are plain (visible ASCII, inner spaces): one test instead of a trim and a test.
  if (PLAIN_VALUE.test(value)) return value;
  const trimmed = value.replace(EDGE_SPACE, '');
  if (/[\0\r\n]|[^\0-\xff]/.test(trimmed)) throw new TypeError(`Headers: ${JSON.stringify(value)} is an invalid header value.`);
  return trimmed;
}
