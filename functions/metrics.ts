/**
 * Request metrics in the Prometheus text format: counts by route group, method and status,
 * and a latency histogram. Served by the Node adapter at METRICS_PATH to loopback clients only.
 */

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export class Metrics {
  private readonly counts = new Map<string, number>();
  private readonly histogram = new Map<string, number[]>();
  private readonly sums = new Map<string, number>();
  private readonly started = Date.now();

  /** Record one finished request. `group` is a bounded label such as `/api/v1/deals` or `page`. */
  observe(group: string, method: string, status: number, seconds: number): void {
    const key = `route="${group}",method="${method}",status="${status}"`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const buckets = this.histogram.get(group) ?? BUCKETS.map(() => 0);
    BUCKETS.forEach((limit, i) => {
      if (seconds <= limit) buckets[i] = (buckets[i] ?? 0) + 1;
    });
    this.histogram.set(group, buckets);
    this.sums.set(group, (this.sums.get(group) ?? 0) + seconds);
  }

  /** The exposition text. */
  render(): string {
    const lines = ['# HELP http_requests_total Requests answered.', '# TYPE http_requests_total counter'];
    for (const [key, value] of this.counts) lines.push(`http_requests_total{${key}} ${value}`);
    lines.push('# HELP http_request_duration_seconds Time to answer.', '# TYPE http_request_duration_seconds histogram');
    for (const [group, buckets] of this.histogram) {
      const count = [...this.counts].filter(([key]) => key.startsWith(`route="${group}"`)).reduce((sum, [, v]) => sum + v, 0);
      BUCKETS.forEach((limit, i) => lines.push(`http_request_duration_seconds_bucket{route="${group}",le="${limit}"} ${buckets[i] ?? 0}`));
      lines.push(`http_request_duration_seconds_bucket{route="${group}",le="+Inf"} ${count}`);
      lines.push(`http_request_duration_seconds_sum{route="${group}"} ${(this.sums.get(group) ?? 0).toFixed(6)}`);
      lines.push(`http_request_duration_seconds_count{route="${group}"} ${count}`);
    }
    lines.push('# HELP process_uptime_seconds Seconds since start.', '# TYPE process_uptime_seconds gauge', `process_uptime_seconds ${((Date.now() - this.started) / 1000).toFixed(0)}`);
    return `${lines.join('\n')}\n`;
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
