import type { TracingConfig } from '../../config-tracing.js';
import type { Tracing } from './types.js';

export type { Tracing };

/**
 * OpenTelemetry traces, when an OTLP endpoint is configured. This module imports nothing of the
 * SDK: without an endpoint the server loads none of it and its requests pay nothing for it.
 */

let sdkLoads = 0;

/** How many times this process loaded the SDK (a test tells that a server without an endpoint never did). */
export function tracingSdkLoads(): number {
  return sdkLoads;
}

/** The SDK set up from `config`, or undefined (nothing loaded) when tracing is off. */
export async function startTracing(config: TracingConfig | undefined, version: string): Promise<Tracing | undefined> {
  if (!config) return undefined;
  sdkLoads++;
  const { createTracing } = await import('./sdk.js');
  return createTracing(config, version);
}
