// Part of `npm run bench`: what OpenTelemetry tracing costs on the request path (issue 36). Fresh
// One Hub processes with tracing off (no endpoint: the SDK not loaded) and on, exporting over
// http/protobuf and http/json to a stand-in collector that reads each post and answers 200,
// alternating with the pass-through. Alone: `npm run build && node --import tsx bench/tracing.ts`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeClient, type Target } from './measure.js';
import { startChild } from './processes.js';
import { measureVariants } from './variants.js';

const ROUNDS = 3;

/** Answers every OTLP export with 200, counting the posts (the section says how many arrived). */
async function startCollector(): Promise<{ url: string; posts: () => number; close(): Promise<void> }> {
  let posts = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      posts++;
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/x-protobuf' });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts: () => posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The tracing section of BENCHMARKS.md (markdown). */
export async function tracingSection(
  root: string,
  upstreamUrl: string,
  passthrough: Target,
  seconds: number,
): Promise<string> {
  const collector = await startCollector();
  try {
    const { base, rows } = await measureVariants({ root, upstreamUrl, passthrough, seconds, rounds: ROUNDS }, [
      { name: 'tracing off (no endpoint)', environment: {} },
      { name: 'tracing on, http/protobuf', environment: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url } },
      {
        name: 'tracing on, http/json',
        environment: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      },
    ]);
    return `## OpenTelemetry tracing\n\nThree fresh One Hub processes on SQLite, 64 concurrent non-stream chats, ${ROUNDS} runs of ${seconds / 2} s each, alternating with the pass-through in rotating order (${base.toFixed(0)} µs of CPU per request in the same slices). With tracing on every request makes two spans (the request and its channel's try), batched and posted to a local stand-in collector that answers 200 (${collector.posts()} posts received); prompt and answer text are not captured. Tracing's cost is the difference to tracing off.\n\n| Variant | Requests/s | CPU per request | Above the pass-through | Tracing's cost | Errors |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
  } finally {
    await collector.close();
  }
}

// Alone: its own upstream and pass-through, the section printed.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  const serve = ['--import', 'tsx', join(root, 'bench/serve.ts')];
  const upstream = await startChild(process.execPath, [...serve, 'upstream'], {});
  const passthrough = await startChild(process.execPath, [...serve, 'passthrough', upstream.url], {});
  try {
    const base: Target = { name: 'pass-through proxy', base: passthrough.url, headers: {}, child: passthrough };
    process.stdout.write(`${await tracingSection(root, upstream.url, base, seconds)}\n`);
  } finally {
    await closeClient();
    await Promise.allSettled([passthrough.stop(), upstream.stop()]);
  }
}
