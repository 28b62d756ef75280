/**
 * `make`'s value, made on the first call and kept; `make` is let go after, and with it what it
 * holds (the records a lookup map is made from, say). A call that throws leaves it to be tried
 * again. The catalog's lookup maps (lazy-map.ts), its startups' name rank, and the slugs the
 * built site holds (functions/site/live-pages.ts) are made this way.
 * @example const rank = once(() => rankBy(startups, (s) => s.name)); rank() === rank() // true
 */
export function once<T>(make: () => T): () => T {
  let maker: (() => T) | undefined = make;
  let value: T | undefined;
  return () => {
    if (maker) {
      value = maker();
      maker = undefined;
    }
    return value as T;
  };
}
