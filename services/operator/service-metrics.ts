import { Counter, Histogram, Registry } from '../../packages/observability/prometheus.ts';

/**
 * The Prometheus metrics of one service (`GET /metrics`; every series is described in
 * `docs/operations.md`, "Metrics"), made by its platform: the event store and the HTTP app of a
 * service report into its one registry. Counters and histograms are measured where things happen
 * (requests, appends); the gauges of shared state are added by `store-gauges.ts`.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'payments_http_requests_total',
    help: 'HTTP requests answered, by method, route (the path pattern) and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'payments_http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to the end of its answer, by method, route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly rateLimitRejections = new Counter({
    name: 'payments_rate_limit_rejections_total',
    help: 'Requests refused with 429 rate_limit_error (the limit is checked before routing)',
    registers: [this.registry],
  });

  readonly eventsAppended = new Counter({
    name: 'payments_events_appended_total',
    help: 'Domain events appended to the log by this process, by the resource of their stream',
    labelNames: ['stream'] as const,
    registers: [this.registry],
  });

  readonly appendDuration = new Histogram({
    name: 'payments_event_append_duration_seconds',
    help: 'Time of one append to the event log (one or more events of one stream), by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  readonly groupCommitAppends = new Histogram({
    name: 'payments_event_store_group_commit_appends',
    help: 'Appends carried by one durable commit of the embedded event store (one fsync each)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });
}
