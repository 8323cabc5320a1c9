import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/**
 * A stand-in for an OpenTelemetry collector: `POST /v1/traces` on a loopback port, decoding
 * OTLP's `http/json` bodies as JSON and `http/protobuf` ones with protobufjs (the part of
 * opentelemetry-proto's trace schema the tests read), keeping every span it was sent.
 */

export interface CollectedSpan {
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, unknown>;
}

export interface OtlpCollector {
  /** The base address, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: CollectedSpan[];
  /** Content types of the exports received, in order. */
  contentTypes: string[];
  /** Headers of the last export. */
  lastHeaders: Record<string, string | string[] | undefined>;
  close(): Promise<void>;
}

// The subset of opentelemetry/proto/collector/trace/v1 and its messages that the tests read;
// protobuf skips the fields left out.
const TRACE_PROTO = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  repeated KeyValue attributes = 9; Status status = 15;
}
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; }
}
message ArrayValue { repeated AnyValue values = 1; }
`;
const exportRequest = protobuf.parse(TRACE_PROTO, { keepCase: false }).root.lookupType('ExportTraceServiceRequest');

type Json = Record<string, unknown>;

/** An OTLP AnyValue (JSON or decoded protobuf: the same field names) as a plain value. */
function plain(value: Json | undefined): unknown {
  if (!value) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('arrayValue' in value) return ((value.arrayValue as Json).values as Json[] | undefined)?.map(plain) ?? [];
  return undefined;
}

function attributesOf(list: unknown): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const entry of (list as Json[] | undefined) ?? []) attributes[entry.key as string] = plain(entry.value as Json);
  return attributes;
}

const hex = (id: unknown) => (typeof id === 'string' ? id : id ? Buffer.from(id as Uint8Array).toString('hex') : '');

function spansOf(body: Json): CollectedSpan[] {
  const spans: CollectedSpan[] = [];
  for (const resourceSpans of (body.resourceSpans as Json[] | undefined) ?? []) {
    const resource = attributesOf((resourceSpans.resource as Json | undefined)?.attributes);
    for (const scope of (resourceSpans.scopeSpans as Json[] | undefined) ?? []) {
      for (const span of (scope.spans as Json[] | undefined) ?? []) {
        spans.push({
          name: span.name as string,
          kind: Number(span.kind ?? 0),
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: hex(span.parentSpanId),
          attributes: attributesOf(span.attributes),
          statusCode: Number((span.status as Json | undefined)?.code ?? 0),
          resource,
        });
      }
    }
  }
  return spans;
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const collector: Omit<OtlpCollector, 'url' | 'close'> = { spans: [], contentTypes: [], lastHeaders: {} };
  const server = createServer(async (request, response) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const body = Buffer.concat(parts);
    const contentType = request.headers['content-type'] ?? '';
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    collector.contentTypes.push(contentType);
    collector.lastHeaders = request.headers;
    const decoded = contentType.includes('json')
      ? (JSON.parse(body.toString('utf8')) as Json)
      : (exportRequest.toObject(exportRequest.decode(body), { longs: Number }) as Json);
    // Kept before the answer: an exporter's flush resolves once its post is answered.
    collector.spans.push(...spansOf(decoded));
    response.writeHead(200, { 'content-type': contentType }).end(contentType.includes('json') ? '{}' : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(collector, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
