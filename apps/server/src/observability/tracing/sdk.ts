import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../../config-tracing.js';
import { installApiSpans } from './api-spans.js';
import { relaySpans } from './relay-spans.js';
import type { Tracing } from './types.js';

/**
 * The OpenTelemetry SDK, set up from the OTEL_* settings: one provider per process (each cluster
 * worker has its own), spans batched and posted to the OTLP endpoint over HTTP. Loaded only when
 * an endpoint is configured (index.ts).
 */
export async function createTracing(config: TracingConfig, version: string): Promise<Tracing> {
  const resource = defaultResource().merge(
    resourceFromAttributes({
      ...config.resourceAttributes,
      [ATTR_SERVICE_NAME]: config.serviceName,
      [ATTR_SERVICE_VERSION]: config.resourceAttributes[ATTR_SERVICE_VERSION] ?? version,
    }),
  );
  const exporter = await exporterFor(config);
  const provider = new BasicTracerProvider({
    resource,
    sampler: samplerOf(config),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('one-hub', version);
  // Not registered globally: the spans are made here, with parents passed by hand.
  const propagator = new W3CTraceContextPropagator();
  return {
    relay: relaySpans({ tracer, propagator, captureContent: config.captureContent }),
    installApi: (app) => installApiSpans(app, { tracer, propagator }),
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** Only the exporter of the configured protocol is loaded. */
async function exporterFor(config: TracingConfig): Promise<SpanExporter> {
  const options = { url: config.tracesUrl, headers: config.headers };
  if (config.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter(options);
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(options);
}

function samplerOf(config: TracingConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.samplerRatio);
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
