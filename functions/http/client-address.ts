/**
 * The client's address for a request, as the platform adapter saw it (DESIGN: the socket
 * address; `X-Forwarded-For` only when a trusted proxy is configured). Web `Request` has no
 * such field, so adapters record it here.
 */
const addresses = new WeakMap<Request, string>();

export function setClientAddress(request: Request, address: string): void {
  addresses.set(request, address);
}

/** The recorded address, or `unknown` (all such requests then share one budget). */
export function clientAddress(request: Request): string {
  return addresses.get(request) ?? 'unknown';
}
