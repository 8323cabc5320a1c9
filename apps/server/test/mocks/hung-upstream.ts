import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An upstream that takes requests and then goes quiet, for the relay's timeouts: `silent` never
 * answers at all; `stall` answers a streamed chat with its headers and one OpenAI chunk, then
 * sends nothing more (a stream that hangs mid-way).
 */
export interface HungUpstream {
  url: string;
  /** Paths of the requests received, in order. */
  received: string[];
  close(): Promise<void>;
}

export async function startHungUpstream(mode: 'silent' | 'stall'): Promise<HungUpstream> {
  const received: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    request.resume();
    request.once('end', () => {
      received.push(request.url ?? '/');
      if (mode === 'silent') return;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = {
        id: 'chatcmpl-stall',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'stall-model',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'The first words' }, finish_reason: null }],
      };
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on: bound once, then released. */
export async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
