import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchStream, dispatchWhole, splitUrl } from './dispatch.js';

// /parts/N sends N numbered parts 5 ms apart; /cut sends two parts and drops the connection; /empty sends nothing.
let server: Server;
let base = '';
const agent = new Agent();

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? '';
    request.resume();
    if (url === '/empty') {
      response.writeHead(204).end();
      return;
    }
    response.writeHead(url === '/error' ? 500 : 200, { 'content-type': 'text/plain' });
    if (url === '/error') {
      response.end('x'.repeat(5000));
      return;
    }
    const count = url === '/cut' ? 2 : Number(url.split('/')[2] ?? 3);
    let sent = 0;
    const next = () => {
      if (sent === count) {
        if (url === '/cut') response.socket?.destroy();
        else response.end();
        return;
      }
      response.write(`part ${sent++};`);
      setTimeout(next, 5);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open = (path: string) => dispatchStream(agent, { url: `${base}${path}`, method: 'GET', headers: {} });
const expected = (count: number) => Array.from({ length: count }, (_, index) => `part ${index};`).join('');

describe('dispatchStream', () => {
  it('hands over every chunk in order, also when the reader holds the upstream with slow promises', async () => {
    const response = await open('/parts/12');
    expect(response.status).toBe(200);
    let text = '';
    await response.pump(async (chunk) => {
      await sleep(8);
      text += chunk.toString();
    });
    expect(text).toBe(expected(12));
  });

  it('keeps chunks that arrive before the reader starts, and an empty body ends at once', async () => {
    const response = await open('/parts/3');
    await sleep(50);
    let text = '';
    await response.pump((chunk) => {
      text += chunk.toString();
      return undefined;
    });
    expect(text).toBe(expected(3));
    const empty = await open('/empty');
    await sleep(20);
    await expect(empty.pump(() => undefined)).resolves.toBeUndefined();
  });

  it('rejects when the upstream drops the connection mid-way, after handing over what came', async () => {
    const response = await open('/cut');
    let text = '';
    await expect(
      response.pump((chunk) => {
        text += chunk.toString();
        return undefined;
      }),
    ).rejects.toThrow();
    expect(text).toBe(expected(2));
  });

  it('stops the upstream on abort, and a reader that throws ends the transfer with its error', async () => {
    const aborted = await open('/parts/50');
    let seen = 0;
    await expect(
      aborted.pump(() => {
        seen++;
        if (seen === 2) aborted.abort();
        return undefined;
      }),
    ).rejects.toThrow('the client went away');
    expect(seen).toBeLessThan(50);
    const failing = await open('/parts/5');
    await expect(
      failing.pump(() => {
        throw new Error('event too large');
      }),
    ).rejects.toThrow('event too large');
  });

  it('reads an error body whole within a limit, and refuses beyond it', async () => {
    const response = await open('/error');
    expect(response.status).toBe(500);
    expect((await response.readAll(10_000)).length).toBe(5000);
    await expect((await open('/error')).readAll(100)).rejects.toThrow('larger than 100 bytes');
  });
});

describe('dispatchWhole and splitUrl', () => {
  it('reads a whole answer and refuses one over the limit', async () => {
    const whole = await dispatchWhole(agent, { url: `${base}/parts/4`, method: 'GET', headers: {} }, 1000);
    expect(whole.body.toString()).toBe(expected(4));
    await expect(dispatchWhole(agent, { url: `${base}/parts/40`, method: 'GET', headers: {} }, 20)).rejects.toThrow(
      'larger than 20 bytes',
    );
  });

  it('splits origin and path without losing the query, and leaves credentials to the URL parser', () => {
    expect(splitUrl('https://api.example.com:8443/v1/chat?x=1')).toEqual({
      origin: 'https://api.example.com:8443',
      path: '/v1/chat?x=1',
    });
    expect(splitUrl('http://host')).toEqual({ origin: 'http://host', path: '/' });
    expect(splitUrl('https://user:pw@host/p').path).toBe('/p');
  });
});
