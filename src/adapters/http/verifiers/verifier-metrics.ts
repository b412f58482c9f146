import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * What verifying services cost and get: every introspection by result, and the change streams open
 * on this instance with the events sent down them. On the app's registry, beside HttpMetrics.
 */
export class VerifierMetrics {
  readonly introspections: Counter<'result'>;
  readonly changeStreams: Gauge;
  readonly changeEvents: Counter<'event'>;
  readonly changeStreamsRefused: Counter<'reason'>;
  readonly changeStreamsClosed: Counter<'reason'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.introspections = new Counter({
      name: 'portcullis_introspections_total',
      help: 'Introspection requests by result: active, inactive, unauthorized (service key), invalid_input, throttled, unavailable, error',
      labelNames: ['result'],
      registers,
    });
    this.changeStreams = new Gauge({
      name: 'portcullis_change_streams_open',
      help: 'Change-feed streams to verifying services open on this instance',
      registers,
    });
    this.changeEvents = new Counter({
      name: 'portcullis_change_stream_events_total',
      help: 'Events written to change-feed streams, by event (change, heartbeat, reset)',
      labelNames: ['event'],
      registers,
    });
    this.changeStreamsRefused = new Counter({
      name: 'portcullis_change_streams_refused_total',
      help: 'Change-feed streams refused with 429 for a limit: service_key (streams per key) or instance (streams on this instance)',
      labelNames: ['reason'],
      registers,
    });
    this.changeStreamsClosed = new Counter({
      name: 'portcullis_change_streams_closed_total',
      help: 'Change-feed streams this instance closed with reset: slow_reader (unsent data past the bound) or service_key (revoked or re-scoped)',
      labelNames: ['reason'],
      registers,
    });
  }
}

/** An introspection's result label, from its status; a 200 says itself whether it was active. */
export function introspectionResult(status: number, active: boolean | undefined): string {
  if (status === 200) return active ? 'active' : 'inactive';
  switch (status) {
    case 400: case 413: case 415: return 'invalid_input';
    case 401: return 'unauthorized';
    case 429: return 'throttled';
    case 503: return 'unavailable';
    default: return 'error';
  }
}
