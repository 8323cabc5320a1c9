// `node --import tsx bench/tracing-cost.ts`: the CPU tracing adds to one relay request, measured
// in-process (no load generator or upstream sharing the cores): the spans the relay's observer
// makes for a non-stream chat (the request, its channel's try, the answer read for its model and
// finish reason), batched and exported over http/protobuf to a local collector that answers 200.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../apps/server/src/config.js';
import { startTracing } from '../apps/server/src/observability/tracing/index.js';
import type { Attempt } from '../apps/server/src/relay/exchange/types.js';

const REQUESTS = Number(process.env.TRACING_REQUESTS ?? 50_000);
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200).end());
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const config = loadConfig({
  SQLITE_PATH: '/tmp/one-hub-tracing-cost/unused.db',
  SESSION_SECRET: 'bench-session-secret-0123456789',
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
  OTEL_EXPORTER_OTLP_PROTOCOL: process.env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
});
const tracing = await startTracing(config.tracing, 'bench');
if (!tracing) throw new Error('tracing did not start');
const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
});
const attempt = {
  caller: { user: { id: 1 }, token: { id: 2 } },
  input: { model: 'gpt-4o-mini', stream: false, fields: {} },
  channelsTried: [3],
  usage: { prompt_tokens: 12, completion_tokens: 7 },
  charged: 26,
} as unknown as Attempt;

async function serve(count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const record = tracing?.relay.started('/v1/chat/completions', { id: `req-${index}`, headers: {} });
    if (!record) return;
    record.attempt = attempt;
    const watch = tracing?.relay.channelTry?.(record, { id: 3, type: 1, upstreamModel: 'gpt-4o-mini' });
    watch?.answered(200)?.whole(body);
    watch?.ended({ clientGone: false });
    tracing?.relay.finished(record, 200);
    // Let the batch processor's exports run, as they would between requests.
    if (index % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await tracing?.forceFlush();
}

await serve(5_000); // warm-up
const start = process.cpuUsage();
await serve(REQUESTS);
const used = process.cpuUsage(start);
const micros = (used.user + used.system) / REQUESTS;
process.stdout.write(
  `tracing, ${config.tracing?.protocol}: ${micros.toFixed(1)} µs of CPU per request (${REQUESTS} requests)\n`,
);
await tracing.shutdown();
server.close();
