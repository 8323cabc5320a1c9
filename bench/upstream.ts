import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The fastest honest upstream: a fixed OpenAI chat answer, or a stream of `bench_events` chunks
 * spaced by `bench_delay` ms, both read from the request body (which both proxies forward).
 */
const answer = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
});

function chunk(content: string): string {
  return `data: {"id":"c","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}\n\n`;
}
const usageChunk =
  'data: {"id":"c","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":100,"total_tokens":110}}\n\n';

export interface BenchUpstream {
  url: string;
  close(): Promise<void>;
}

export async function startBenchUpstream(): Promise<BenchUpstream> {
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      if (!body.includes('"stream":true')) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
        response.end(answer);
        return;
      }
      const shape = JSON.parse(body) as { bench_events?: number; bench_delay?: number };
      const events = shape.bench_events ?? 20;
      const delayMs = shape.bench_delay ?? 0;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const next = () => {
        if (response.destroyed) return;
        if (sent >= events) {
          response.end(`${usageChunk}data: [DONE]\n\n`);
          return;
        }
        sent++;
        response.write(chunk('word '));
        if (delayMs > 0) setTimeout(next, delayMs);
        else setImmediate(next);
      };
      next();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
