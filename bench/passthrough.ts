import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

/**
 * The baseline: a minimal proxy that forwards the body to the upstream with undici and pipes the
 * answer back. No auth, no routing, no billing, no logs: what any gateway costs at the least.
 */
export interface Passthrough {
  url: string;
  close(): Promise<void>;
}

export async function startPassthrough(upstreamUrl: string): Promise<Passthrough> {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const server: Server = createServer((incoming, outgoing) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const headers = { 'content-type': 'application/json' };
      request(`${upstreamUrl}${incoming.url ?? ''}`, {
        method: 'POST',
        headers,
        body: Buffer.concat(parts),
        dispatcher: agent,
      })
        .then(async (answer) => {
          outgoing.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? '') });
          for await (const part of answer.body) {
            if (!outgoing.write(part)) await new Promise((resolve) => outgoing.once('drain', resolve));
          }
          outgoing.end();
        })
        .catch(() => {
          outgoing.writeHead(502);
          outgoing.end();
        });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await agent.close();
    },
  };
}
