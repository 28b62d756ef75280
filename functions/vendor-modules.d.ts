/**
 * The single classes the server takes from prom-client and rate-limiter-flexible, loaded from
 * the packages' own files instead of their index, which loads everything each package offers:
 * prom-client's, its default metrics and with them OpenTelemetry's API (77 modules, 58-70 ms at
 * start); rate-limiter-flexible's, a limiter for every store it supports (36 modules, 36-40 ms).
 * The classes the server uses take 5 and 3-4 ms (docs/performance.md, fourteenth sitting). Each
 * file's export is the same class the package's index exports, typed here as that.
 */
declare module 'prom-client/lib/registry.js' {
  import { Registry } from 'prom-client';
  export default Registry;
}
declare module 'prom-client/lib/counter.js' {
  import { Counter } from 'prom-client';
  export default Counter;
}
declare module 'prom-client/lib/gauge.js' {
  import { Gauge } from 'prom-client';
  export default Gauge;
}
declare module 'prom-client/lib/histogram.js' {
  import { Histogram } from 'prom-client';
  export default Histogram;
}
declare module 'prom-client/lib/defaultMetrics.js' {
  import { collectDefaultMetrics } from 'prom-client';
  export default collectDefaultMetrics;
}
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  import { RateLimiterMemory } from 'rate-limiter-flexible';
  export default RateLimiterMemory;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  import { RateLimiterRedis } from 'rate-limiter-flexible';
  export default RateLimiterRedis;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  import { RateLimiterRes } from 'rate-limiter-flexible';
  export default RateLimiterRes;
}
