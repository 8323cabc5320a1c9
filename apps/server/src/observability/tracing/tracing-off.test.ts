import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/app.js';
import { startTracing, tracingSdkLoads } from './index.js';

const support = (name: string) => fileURLToPath(new URL(`../../../test/tracing/${name}`, import.meta.url));

describe('tracing without an OTLP endpoint', () => {
  it('builds a server with no tracing and never runs the SDK loader', async () => {
    const loads = tracingSdkLoads();
    const t = await startTestApp();
    try {
      expect(t.app.tracing).toBeUndefined();
      expect(await startTracing(undefined, 'test')).toBeUndefined();
      expect(tracingSdkLoads()).toBe(loads);
    } finally {
      await t.close();
    }
  });

  it('imports no OpenTelemetry package with the whole server loaded, and does once an endpoint is set', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'one-hub-resolved-')), 'resolved.log');
    writeFileSync(log, '');
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', support('resolve-recorder.mjs'), support('tracing-off-child.ts')],
      { env: { ...process.env, RESOLVE_LOG: log }, encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const [withoutEndpoint, withEndpoint, after] = readFileSync(log, 'utf8').split(/--- tracing (?:on|off)\n/);
    expect(readFileSync(log, 'utf8')).toMatch(/--- tracing off\n[\s\S]*--- tracing on\n/);
    expect(withoutEndpoint).toBe('');
    // The same recorder sees the SDK once it is asked for: the empty list above is not a blind spot.
    expect(withEndpoint).toContain('@opentelemetry/sdk-trace-base\n');
    expect(withEndpoint).toContain('@opentelemetry/exporter-trace-otlp-proto\n');
    expect(withEndpoint).not.toContain('@opentelemetry/exporter-trace-otlp-http\n');
    expect(after).toBe('');
  });
});
