import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * Loopback forward proxies for tests of channels' `proxy`: an HTTP proxy that tunnels with
 * CONNECT (RFC 9110 §9.3.6), which undici's ProxyAgent uses for every target, and a SOCKS5 proxy
 * (RFC 1928, with RFC 1929's username and password). Each records the tunnels it opened: the
 * user the client named and the address it asked for.
 */
export interface Tunnel {
  user: string;
  host: string;
  port: number;
}

export interface TestProxy {
  /** `scheme://127.0.0.1:port`, without credentials. */
  url: string;
  tunnels: Tunnel[];
  close(): Promise<void>;
}

function pipeBoth(client: Socket, target: Socket): void {
  client.on('error', () => target.destroy());
  target.on('error', () => client.destroy());
  target.pipe(client);
  client.pipe(target);
}

async function listening(server: Server, scheme: string, tunnels: Tunnel[]): Promise<TestProxy> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP proxy: CONNECT opens a tunnel; a request in absolute form is refused (502). */
export function startHttpProxy(): Promise<TestProxy> {
  const tunnels: Tunnel[] = [];
  const server = createHttpServer((_request, response) => {
    response.writeHead(502).end();
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const [host = '', port = '0'] = (request.url ?? '').split(/:(?=\d+$)/);
    const basic = /^Basic (.+)$/.exec(request.headers['proxy-authorization'] ?? '')?.[1];
    const user = basic ? (Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? '') : '';
    tunnels.push({ user, host, port: Number(port) });
    const target = connect({ host, port: Number(port), family: 4 }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) target.write(head);
      pipeBoth(client, target);
    });
    target.on('error', () => client.destroy());
  });
  return listening(server, 'http', tunnels);
}

/** Reads exact byte counts from a socket until the handshake is done. */
function byteReader(socket: Socket) {
  let held = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    held = Buffer.concat([held, chunk]);
    waiting?.();
  };
  socket.on('data', onData);
  return {
    async read(count: number): Promise<Buffer> {
      while (held.length < count) await new Promise<void>((resolve) => (waiting = resolve));
      const bytes = held.subarray(0, count);
      held = held.subarray(count);
      return bytes;
    },
    /** Stops reading; what arrived past the handshake. */
    release(): Buffer {
      socket.off('data', onData);
      return held;
    },
  };
}

async function socksHandshake(client: Socket, tunnels: Tunnel[]): Promise<void> {
  const reader = byteReader(client);
  const [, methodCount = 0] = await reader.read(2);
  const methods = await reader.read(methodCount);
  let user = '';
  if (methods.includes(0x02)) {
    client.write(Buffer.from([0x05, 0x02]));
    const [, userLength = 0] = await reader.read(2);
    user = (await reader.read(userLength)).toString('utf8');
    const [passwordLength = 0] = await reader.read(1);
    await reader.read(passwordLength);
    client.write(Buffer.from([0x01, 0x00]));
  } else client.write(Buffer.from([0x05, 0x00]));
  const [, , , addressType] = await reader.read(4);
  let host: string;
  if (addressType === 0x03) {
    const [length = 0] = await reader.read(1);
    host = (await reader.read(length)).toString('utf8');
  } else if (addressType === 0x01) host = [...(await reader.read(4))].join('.');
  else throw new Error('only IPv4 and host names are served');
  const port = (await reader.read(2)).readUInt16BE(0);
  tunnels.push({ user, host, port });
  const target = connect({ host, port, family: 4 }, () => {
    client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
    const early = reader.release();
    if (early.length > 0) target.write(early);
    pipeBoth(client, target);
  });
  target.on('error', () => client.destroy());
}

/** A SOCKS5 proxy taking CONNECT, with or without a username and password (any are accepted). */
export function startSocksProxy(): Promise<TestProxy> {
  const tunnels: Tunnel[] = [];
  const server = createServer((client) => {
    socksHandshake(client, tunnels).catch(() => client.destroy());
  });
  return listening(server, 'socks5', tunnels);
}
