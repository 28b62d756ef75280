/**
 * Request metrics in the Prometheus text format through prom-client: counts by route group,
 * method and status, a latency histogram, and prom-client's default process metrics. Served by
 * the app (http/app.ts) at METRICS_PATH to loopback clients only.
 */

// The classes from their own files: prom-client's index also loads its default metrics and with them OpenTelemetry's API (functions/vendor-modules.d.ts), which only a scrape needs.
import Counter from 'prom-client/lib/counter.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * prom-client's default process metrics (event-loop lag, GC, heap, CPU, handles), once per
 * process: they describe the process, whichever server in it is scraped.
 */
let processRegistry: Promise<Registry> | undefined;
function processMetrics(): Promise<Registry> {
  processRegistry ??= import('prom-client/lib/defaultMetrics.js').then(({ default: collectDefaultMetrics }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    return registry;
  });
  return processRegistry;
}

export class Metrics {
  /** This server's own series (a registry per server, so servers in one process never share counts). */
  private readonly registry = new Registry();
  private readonly requests = new Counter({ name: 'http_requests_total', help: 'Requests answered.', labelNames: ['route', 'method', 'status'] as const, registers: [this.registry] });
  private readonly duration = new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer.', labelNames: ['route'] as const, buckets: BUCKETS, registers: [this.registry] });

  constructor() {
    const started = Date.now();
    new Gauge({
      name: 'process_uptime_seconds',
      help: 'Seconds since start.',
      registers: [this.registry],
      collect() {
        this.set(Math.round((Date.now() - started) / 1000));
      },
    });
  }

  /** Record one finished request. `group` is a bounded label such as `/api/v1/deals` or `page`. */
  observe(group: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route: group, method, status: String(status) });
    this.duration.observe({ route: group }, seconds);
  }

  /** The exposition text (Prometheus text format 0.0.4): this server's series, then the process's. */
  async render(): Promise<string> {
    return Registry.merge([this.registry, await processMetrics()]).metrics();
  }
}

/**
 * A bounded label for a path: API routes by their canonical path (`apiRoute`, from the router),
 * any other API path as one group, everything else by kind. Labels never come from the raw path,
 * so invented paths cannot grow the series without bound.
 */
export function routeGroup(pathname: string, apiRoute: string | undefined): string {
  if (pathname === '/api' || pathname.startsWith('/api/')) return apiRoute ?? '/api/other';
  if (pathname.startsWith('/.well-known/') || /\.(txt|xml|json)$/.test(pathname)) return 'document';
  if (pathname.startsWith('/_astro/')) return 'asset';
  return 'page';
}
