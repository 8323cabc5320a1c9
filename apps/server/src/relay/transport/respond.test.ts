import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamedResponse } from './executor.js';
import { ClientLink } from './respond.js';

/** A server whose one request is answered by `serve`, and the client's response to it. */
async function exchange(
  serve: (response: ServerResponse) => void,
): Promise<{ server: Server; answer: IncomingMessage }> {
  const server = createServer((_request, response) => serve(response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const request = get({ host: '127.0.0.1', port, path: '/' });
  const [answer] = (await once(request, 'response')) as [IncomingMessage];
  return { server, answer };
}

async function bodyOf(answer: IncomingMessage): Promise<string> {
  let text = '';
  answer.setEncoding('utf8');
  for await (const piece of answer) text += piece;
  return text;
}

const upstream = () => ({ abort: vi.fn() }) as unknown as StreamedResponse & { abort: ReturnType<typeof vi.fn> };

let opened: Server | undefined;
afterEach(() => {
  opened?.closeAllConnections();
  opened?.close();
  opened = undefined;
});

describe('the client link', () => {
  it('sends the first write at once and the later writes of one tick as one, in order, before the end', async () => {
    const calls: unknown[] = [];
    let afterFirst: unknown[] = [];
    let withinTick: unknown[] = [];
    let firstAnswer: unknown = null;
    const { server, answer } = await exchange((response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const write = response.write.bind(response);
      response.write = ((data: never) => {
        calls.push(String(data));
        return write(data);
      }) as typeof response.write;
      const link = new ClientLink(response, upstream());
      firstAnswer = link.write('first;');
      afterFirst = [...calls];
      link.write(Buffer.from('a;'));
      link.write('b;');
      link.write(Buffer.from('ć;'));
      // Nothing of them is handed over within the tick.
      withinTick = [...calls];
      // What ends the body is written after them.
      link.write('[DONE]');
      link.release();
      response.end();
    });
    opened = server;
    expect(await bodyOf(answer)).toBe('first;a;b;ć;[DONE]');
    expect(firstAnswer).toBeUndefined();
    expect(afterFirst).toEqual(['first;']);
    expect(withinTick).toEqual(['first;']);
    expect(calls).toEqual(['first;', 'a;b;ć;[DONE]']);
  });

  it('hands a tick’s writes over at the end of the tick without being asked', async () => {
    const { server, answer } = await exchange((response) => {
      response.writeHead(200);
      const link = new ClientLink(response, upstream());
      link.write('1;');
      link.write('2;');
      link.write('3;');
      // The end comes in a later tick and not through the link: the gathered writes went out before.
      setImmediate(() => response.end());
    });
    opened = server;
    expect(await bodyOf(answer)).toBe('1;2;3;');
  });

  it('holds the writer when the client does not read, and lets it go when the client drains', async () => {
    const piece = 'x'.repeat(1000);
    let held: Promise<unknown> | undefined;
    let beforeHold = 0;
    let highWaterMark = 0;
    let writes = 0;
    let link: ClientLink | undefined;
    let response: ServerResponse | undefined;
    const { server, answer } = await exchange((res) => {
      response = res;
      res.writeHead(200);
      link = new ClientLink(res, upstream());
      highWaterMark = res.writableHighWaterMark;
      // Writes of one tick, as an upstream burst: the link must answer a hold by itself.
      while (!held && writes < 100_000) {
        beforeHold = res.writableLength;
        held = link.write(piece);
        writes++;
      }
    });
    opened = server;
    answer.pause();
    await vi.waitFor(() => expect(held).toBeInstanceOf(Promise));
    // The hold came with the write that reached the high-water mark, not later.
    expect(beforeHold).toBeLessThan(highWaterMark);
    expect(writes).toBeLessThan(100_000);
    const body = bodyOf(answer);
    await held;
    link?.release();
    response?.end();
    expect(await body).toBe(piece.repeat(writes));
  });

  it('notices a client that leaves, stops the upstream and drops what is gathered', async () => {
    const source = upstream();
    let link: ClientLink | undefined;
    const { server, answer } = await exchange((response) => {
      response.writeHead(200);
      link = new ClientLink(response, source);
      link.write('first;');
    });
    opened = server;
    answer.destroy();
    await vi.waitFor(() => expect(link?.gone).toBe(true));
    expect(source.abort).toHaveBeenCalledTimes(1);
    expect(link?.write('late;')).toBeUndefined();
    expect(link?.flush()).toBe(true);
  });
});
