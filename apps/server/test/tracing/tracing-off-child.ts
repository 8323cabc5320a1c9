// Run by tracing-off.test.ts in a process of its own: loads the whole server's modules (app.ts),
// starts tracing as a server without an OTLP endpoint does, then as one with an endpoint, and
// marks between the two in the resolution log.
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startTracing } from '../../src/observability/tracing/index.js';

const log = process.env.RESOLVE_LOG as string;
const base = {
  SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'one-hub-tracing-')), 'unused.db'),
  SESSION_SECRET: 'test-session-secret-0123456789',
};
const off = await startTracing(loadConfig(base).tracing, 'test');
appendFileSync(log, `--- tracing ${off === undefined ? 'off' : 'on'}\n`);
const on = await startTracing(
  loadConfig({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }).tracing,
  'test',
);
appendFileSync(log, `--- tracing ${on === undefined ? 'off' : 'on'}\n`);
await on?.shutdown();
