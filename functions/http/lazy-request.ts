/**
 * A Web `Request` for a bodiless Node request (GET, HEAD, OPTIONS) that is made only when
 * something needs more than its method, URL and headers.
 *
 * Why: a Node 24 `Request` brings an `AbortSignal` held through a FinalizationRegistry, and
 * under load that garbage, not the work, was what made a cached answer slow (bench case (b),
 * search with the answer cache on: 64–107 µs of CPU per request with a full Request each time,
 * 15,000 req/s before the front door became one Web handler; see docs/performance.md). The same
 * idea as @hono/node-server's lightweight request, written for this app: method, url and headers
 * are its own; every other member of `Request.prototype` is answered by the real Request,
 * made on first use. `webRequest` gives code that hands the request to another library (Astro)
 * the real thing.
 */
import type { IncomingMessage } from 'node:http';

export class LazyRequest {
  readonly method: string;
  readonly url: string;
  readonly #raw: readonly string[];
  #headers: Headers | undefined;
  #request: Request | undefined;
  #parsedUrl: URL | undefined;

  constructor(method: string, url: string, raw: readonly string[]) {
    this.method = method;
    this.url = url;
    this.#raw = raw;
  }

  get headers(): Headers {
    if (!this.#headers) {
      const headers = new Headers();
      for (let i = 0; i < this.#raw.length; i += 2) headers.append(this.#raw[i] as string, this.#raw[i + 1] as string);
      this.#headers = headers;
    }
    return this.#headers;
  }

  /** One header as `headers.get` gives it (repeated fields joined by `, `), read from the raw list while no `Headers` was made; `name` in lower case. */
  header(name: string): string | null {
    if (this.#headers) return this.#headers.get(name);
    let value: string | null = null;
    for (let i = 0; i < this.#raw.length; i += 2) {
      const field = this.#raw[i] as string;
      if (field.length === name.length && field.toLowerCase() === name) value = value === null ? (this.#raw[i + 1] as string) : `${value}, ${this.#raw[i + 1] as string}`;
    }
    return value;
  }

  /** `url` parsed, once: the front door and the handler both read it. */
  get parsedUrl(): URL {
    this.#parsedUrl ??= new URL(this.url);
    return this.#parsedUrl;
  }

  /** The Web Request this one stands for, made once. */
  get request(): Request {
    this.#request ??= new Request(this.url, { method: this.method, headers: this.headers });
    return this.#request;
  }
}

// Every other member of Request (body, signal, clone(), text()…) is the real Request's.
Object.setPrototypeOf(LazyRequest.prototype, Request.prototype);
for (const name of Object.getOwnPropertyNames(Request.prototype)) {
  if (name === 'constructor' || Object.hasOwn(LazyRequest.prototype, name)) continue;
  const { value, get, enumerable, configurable } = Object.getOwnPropertyDescriptor(Request.prototype, name) as PropertyDescriptor;
  if (typeof value === 'function') {
    Object.defineProperty(LazyRequest.prototype, name, {
      enumerable,
      configurable,
      writable: true,
      value(this: LazyRequest, ...args: unknown[]) {
        return (value as (...a: unknown[]) => unknown).apply(this.request, args);
      },
    });
  } else if (get) {
    Object.defineProperty(LazyRequest.prototype, name, {
      enumerable,
      configurable,
      get(this: LazyRequest) {
        return get.call(this.request);
      },
    });
  }
}

/** A Request for a bodiless Node request, as `Request` (which it is, for everything but identity). */
export function lazyRequest(req: IncomingMessage, method: string, url: string): Request {
  return new LazyRequest(method, url, req.rawHeaders) as unknown as Request;
}

/**
 * A request header, as `request.headers.get(name)` gives it, without making a `Headers` for a
 * lazy request: a cached answer reads three or four, and the `Headers` cost 0.3 µs of its 4.
 * @param name lower case
 */
export function headerOf(request: Request, name: string): string | null {
  return (request as unknown) instanceof LazyRequest ? (request as unknown as LazyRequest).header(name) : request.headers.get(name);
}

/**
 * The request's URL parsed, once per lazy request (the front door's context and the handler
 * share it; neither changes it), else anew.
 */
export function urlOf(request: Request): URL {
  return (request as unknown) instanceof LazyRequest ? (request as unknown as LazyRequest).parsedUrl : new URL(request.url);
}

/** The real Web Request, for libraries that need one (a `LazyRequest` is not one to `new Request(…)`). */
export function webRequest(request: Request): Request {
  return (request as unknown) instanceof LazyRequest ? (request as unknown as LazyRequest).request : request;
}
