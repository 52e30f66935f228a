import { Counter, Histogram, Registry } from 'prom-client';

/**
 * Bullpen's own HTTP metrics in a registry of its own (never prom-client's
 * global one), built once with the services: a request counter and a
 * latency histogram, both by method, route template and status.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;

  constructor() {
    const labelNames = ['method', 'route', 'status'] as const;
    this.requests = new Counter({
      name: 'bullpen_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames,
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'bullpen_http_request_duration_seconds',
      help: 'HTTP request latency in seconds, by method, route template and status',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
  }

  observe(labels: { method: string; route: string; status: number }, seconds: number): void {
    const values = { method: labels.method, route: labels.route, status: String(labels.status) };
    this.requests.inc(values);
    this.duration.observe(values, seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
