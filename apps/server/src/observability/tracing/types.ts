import type { FastifyInstance } from 'fastify';
import type { RelayObserver } from '../../relay/exchange/types.js';

/** Traces of one process, set up by sdk.ts when an OTLP endpoint is configured. */
export interface Tracing {
  /** The relay's spans: one per request, one per channel tried (combined with the metrics' observer). */
  readonly relay: RelayObserver;
  /** Adds a span per /api request (two Fastify hooks). */
  installApi(app: FastifyInstance): void;
  /** Exports the spans ended so far (tests; the shutdown does it too). */
  forceFlush(): Promise<void>;
  /** Exports what is left and stops: at graceful shutdown. */
  shutdown(): Promise<void>;
}
