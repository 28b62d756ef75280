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
 */
export class BytesResponse extends Response {
  /** The body, as sent (never for a 204 or 304). */
  readonly payload: Uint8Array;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;
  #read = false;

  constructor(payload: Uint8Array, init: ResponseInit) {
    super(null, init);
    this.payload = payload;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.#stream ??= new ReadableStream({
      start: (controller) => {
        // Payloads are never on a SharedArrayBuffer; lib.dom types stream chunks as ArrayBuffer views.
        controller.enqueue(this.payload as Uint8Array<ArrayBuffer>);
        controller.close();
      },
    });
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
    return this.#stream ? new Uint8Array(await new Response(this.#stream).arrayBuffer()) : this.payload;
  }
}
