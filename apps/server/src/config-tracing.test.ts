import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const base = { SQLITE_PATH: '/tmp/one-hub-config-tracing/unused.db', SESSION_SECRET: 'test-session-secret-0123456789' };
const tracingOf = (env: Record<string, string>) => loadConfig({ ...base, ...env }).tracing;

describe('OTEL_* settings', () => {
  it('leaves tracing off without an endpoint, or when the SDK is disabled', () => {
    expect(tracingOf({ OTEL_SERVICE_NAME: 'hub', OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    expect(
      tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
  });

  it('posts to /v1/traces under the base endpoint, or to the traces endpoint as given', () => {
    expect(tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      serviceName: 'one-hub',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      resourceAttributes: {},
      captureContent: false,
    });
    expect(
      tracingOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
      })?.tracesUrl,
    ).toBe('https://traces.example/otlp');
  });

  it('reads headers, resource attributes, the sampler and content capture', () => {
    const tracing = tracingOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-tenant=acme',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource,deployment.environment.name=prod',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    expect(tracing).toMatchObject({
      protocol: 'http/json',
      headers: { authorization: 'Bearer abc', 'x-tenant': 'acme' },
      serviceName: 'from-resource',
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      resourceAttributes: { 'deployment.environment.name': 'prod' },
      captureContent: true,
    });
  });

  it('refuses what it cannot honour, naming the variable', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(() => tracingOf({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL: must be http\/protobuf or http\/json \(grpc is not supported\)/,
    );
    expect(() => tracingOf({ ...endpoint, OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => tracingOf({ ...endpoint, OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    const headers = () => tracingOf({ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme,Bearer-secret-token' });
    expect(headers).toThrow(ConfigError);
    expect(headers).toThrow(/OTEL_EXPORTER_OTLP_HEADERS: must be a list of key=value pairs \(entry 2 is not one\)/);
    expect(headers).not.toThrow(/secret-token/);
    expect(() => tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});
