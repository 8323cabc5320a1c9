import cluster from 'node:cluster';
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RelayObserver, RelayRecord } from '../relay/exchange/types.js';

/**
 * The server's Prometheus metrics: relay requests by route, model, channel and status, upstream
 * failures, quota spent, requests and streams in flight, the log writer's backlog, and Node's own
 * process metrics. One registry per server; in a cluster each worker has its own and the primary
 * adds them up (metrics/cluster.ts).
 */

/** Distinct model names given a label of their own; later ones count as `(other)`. */
export const MAX_MODEL_LABELS = 200;
/** A model label is cut to this length (names on wildcard channels are the client's choice). */
const MODEL_LABEL_LENGTH = 100;
/** A request that never reached a channel: its model name is whatever the client sent. */
export const UNROUTED = '(unrouted)';
export const OTHER_MODEL = '(other)';
/** Refused before its body was read (key, limits, input): no model, no channel. */
const NONE = '';

/** From a streamed first byte to a five-minute answer. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

interface OpenRecord extends RelayRecord {
  route: string;
  startedAt: number;
}

interface Series {
  requests: Counter.Internal;
  duration: Histogram.Internal<string>;
}

export interface Metrics {
  readonly registry: Registry;
  /** Handed to the relay (installRelay); a disabled server passes none. */
  readonly relay: RelayObserver;
}

let workerListenerInstalled = false;

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['route', 'model', 'channel', 'status'] as const;
  const requests = new Counter({
    name: 'onehub_relay_requests_total',
    help: 'Relay requests finished, by endpoint, model, channel (the last one tried) and HTTP status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'onehub_relay_request_duration_seconds',
    help: 'Time from a relay request reaching the pipeline to its last byte and settlement.',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const quota = new Counter({
    name: 'onehub_relay_quota_spent_total',
    help: 'Quota charged to users for relay requests, by model and channel.',
    labelNames: ['model', 'channel'] as const,
    registers: [registry],
  });
  const upstreamFailures = new Counter({
    name: 'onehub_upstream_failures_total',
    help: 'Tries on a channel that failed (a retry may still have answered the request), by channel.',
    labelNames: ['channel'] as const,
    registers: [registry],
  });

  // 1 in each process; a cluster's scrape adds them up, so it tells how many workers answered.
  new Gauge({
    name: 'onehub_worker_processes',
    help: 'Server processes whose metrics this scrape holds.',
    registers: [registry],
  }).set(1);
  const open = new Set<OpenRecord>();
  new Gauge({
    name: 'onehub_relay_in_flight_requests',
    help: 'Relay requests being served.',
    registers: [registry],
    collect() {
      this.set(open.size);
    },
  });
  new Gauge({
    name: 'onehub_relay_in_flight_streams',
    help: 'Relay requests being served that asked for a stream.',
    registers: [registry],
    collect() {
      let streams = 0;
      for (const record of open) if (record.attempt?.input.stream) streams++;
      this.set(streams);
    },
  });
  let backlog: () => number = () => 0;
  new Gauge({
    name: 'onehub_log_writer_backlog_rows',
    help: 'Log rows accepted and not yet written to the database.',
    registers: [registry],
    collect() {
      this.set(backlog());
    },
  });

  const models = new Set<string>();
  const modelLabel = (record: RelayRecord): string => {
    const attempt = record.attempt;
    if (!attempt) return NONE;
    if (attempt.channelsTried.length === 0) return UNROUTED;
    const name = attempt.input.model.slice(0, MODEL_LABEL_LENGTH);
    if (models.has(name)) return name;
    if (models.size >= MAX_MODEL_LABELS) return OTHER_MODEL;
    models.add(name);
    return name;
  };

  // One child per label set, found by one key: prom-client would otherwise sort and join the labels on every call.
  const series = new Map<string, Series>();
  const seriesOf = (route: string, model: string, channel: string, status: number): Series => {
    const key = `${route} ${status} ${channel} ${model}`;
    let found = series.get(key);
    if (!found) {
      const labels = { route, model, channel, status: String(status) };
      found = { requests: requests.labels(labels), duration: duration.labels(labels) };
      series.set(key, found);
    }
    return found;
  };

  const relay: RelayObserver = {
    started(route) {
      const record: OpenRecord = { route, startedAt: performance.now(), attempt: undefined };
      open.add(record);
      return record;
    },
    finished(record, status) {
      const { route, startedAt } = record as OpenRecord;
      open.delete(record as OpenRecord);
      const model = modelLabel(record);
      const channelId = record.attempt?.channelsTried.at(-1);
      const channel = channelId === undefined ? NONE : String(channelId);
      const found = seriesOf(route, model, channel, status);
      found.requests.inc();
      found.duration.observe((performance.now() - startedAt) / 1000);
      const charged = record.attempt?.charged ?? 0;
      if (charged > 0) quota.inc({ model, channel }, charged);
    },
    upstreamFailed(channelId) {
      upstreamFailures.inc({ channel: String(channelId) });
    },
    watchLogBacklog(rows) {
      backlog = rows;
    },
  };

  // A cluster's primary asks each worker for its metrics over IPC; the worker answers from this registry.
  if (cluster.isWorker && !workerListenerInstalled) {
    workerListenerInstalled = true;
    new AggregatorRegistry();
  }
  if (cluster.isWorker) AggregatorRegistry.setRegistries([registry]);
  return { registry, relay };
}
