import { z } from 'zod';
import { booleanText, optionalText, optionalUrl } from './config-fields.js';

/**
 * OpenTelemetry traces, configured only by the standard OTEL_* variables (the SDK's own
 * environment specification). No endpoint: tracing is off and nothing of the SDK is loaded.
 */

export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export interface TracingConfig {
  /** Where spans are posted: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
  tracesUrl: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Sent with every export (an authorisation header, a tenant): OTEL_EXPORTER_OTLP_HEADERS. */
  headers: Record<string, string>;
  serviceName: string;
  sampler: (typeof TRACE_SAMPLERS)[number];
  /** The ratio of the traceidratio samplers (OTEL_TRACES_SAMPLER_ARG), 1 by default. */
  samplerRatio: number;
  resourceAttributes: Record<string, string>;
  /** Prompt and answer text on the spans (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT): off by default. */
  captureContent: boolean;
}

/** `key=value,key=value`, values percent-encoded (the W3C Baggage octets the specification names). */
const keyValueList = optionalText.transform((value, context): Record<string, string> => {
  const entries: Record<string, string> = {};
  for (const [index, pair] of (value ?? '').split(',').entries()) {
    if (pair.trim() === '') continue;
    const separator = pair.indexOf('=');
    const key = separator > 0 ? pair.slice(0, separator).trim() : '';
    let decoded: string | undefined;
    try {
      decoded = separator > 0 ? decodeURIComponent(pair.slice(separator + 1).trim()) : undefined;
    } catch {
      decoded = undefined;
    }
    if (!key || decoded === undefined) {
      // The entry is not echoed: it may be a token pasted without its header name.
      context.addIssue({
        code: 'custom',
        message: `must be a list of key=value pairs (entry ${index + 1} is not one)`,
      });
      return z.NEVER;
    }
    entries[key] = decoded;
  }
  return entries;
});

const protocol = optionalText.refine(
  (value) => value === undefined || value === 'http/protobuf' || value === 'http/json',
  'must be http/protobuf or http/json (grpc is not supported)',
);

export const tracingEnvironment = {
  OTEL_SDK_DISABLED: booleanText.default(false),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
  OTEL_EXPORTER_OTLP_HEADERS: keyValueList,
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: keyValueList,
  OTEL_SERVICE_NAME: optionalText,
  OTEL_TRACES_SAMPLER: z
    .enum(TRACE_SAMPLERS, `must be one of ${TRACE_SAMPLERS.join(', ')}`)
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: optionalText.refine(
    (value) => value === undefined || (Number(value) >= 0 && Number(value) <= 1),
    'must be a ratio between 0 and 1',
  ),
  OTEL_RESOURCE_ATTRIBUTES: keyValueList,
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: booleanText.default(false),
};

type TracingEnvironment = { [Key in keyof typeof tracingEnvironment]: z.output<(typeof tracingEnvironment)[Key]> };

/** Tracing's settings, or undefined when no endpoint is set (or OTEL_SDK_DISABLED): tracing off. */
export function tracingConfig(env: TracingEnvironment): TracingConfig | undefined {
  if (env.OTEL_SDK_DISABLED) return undefined;
  const tracesUrl =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (env.OTEL_EXPORTER_OTLP_ENDPOINT ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!tracesUrl) return undefined;
  const resourceAttributes = env.OTEL_RESOURCE_ATTRIBUTES;
  return {
    tracesUrl,
    protocol: (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
      env.OTEL_EXPORTER_OTLP_PROTOCOL ??
      'http/protobuf') as TracingConfig['protocol'],
    headers: { ...env.OTEL_EXPORTER_OTLP_HEADERS, ...env.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
    // OTEL_SERVICE_NAME wins over a service.name among the resource attributes, as the specification says.
    serviceName: env.OTEL_SERVICE_NAME ?? resourceAttributes['service.name'] ?? 'one-hub',
    sampler: env.OTEL_TRACES_SAMPLER,
    samplerRatio: env.OTEL_TRACES_SAMPLER_ARG === undefined ? 1 : Number(env.OTEL_TRACES_SAMPLER_ARG),
    resourceAttributes,
    captureContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT,
  };
}
