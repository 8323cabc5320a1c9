import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../platform/private-address.js';
import { createImageFetcher } from './image-fetch.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

describe('isPrivateAddress', () => {
  it('knows loopback, private, link-local and mapped addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('the image fetcher', () => {
  let images: Server;
  let proxy: Server;
  let imagePort = 0;
  let proxyPort = 0;
  const tunnels: string[] = [];
  const settings = { ChatImageRequestProxy: '', ChatImageAllowPrivate: 'false' };
  const options = {
    get: (key: string) => settings[key as keyof typeof settings] ?? '',
    getBoolean: (key: string) => settings[key as keyof typeof settings] === 'true',
  };
  // A resolver of our own: intranet.test is a loopback name, as a hostile DNS answer would be.
  const resolver = ((hostname: string, _options: object, callback: (...args: unknown[]) => void) => {
    if (hostname === 'intranet.test') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
  }) as unknown as typeof import('node:dns').lookup;
  const fetcher = createImageFetcher(options as never, resolver);

  beforeAll(async () => {
    images = createServer((request, response) => {
      if (request.url === '/cat.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      if (request.url === '/mislabelled')
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end(PNG);
      if (request.url === '/page') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      response.writeHead(404).end();
    });
    imagePort = await listen(images);
    // A CONNECT proxy that resolves every name to the image server itself.
    proxy = createServer();
    proxy.on('connect', (request, socket) => {
      tunnels.push(String(request.url));
      const upstream = connect(imagePort, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    proxyPort = await listen(proxy);
  });
  afterAll(async () => {
    await fetcher.close();
    await new Promise((resolve) => images.close(resolve));
    await new Promise((resolve) => proxy.close(resolve));
  });

  const failure = (url: string) =>
    fetcher.dataUrl(url).then(
      () => '',
      (error: Error) => error.message,
    );

  it('refuses loopback and private addresses, given literally or by a name that resolves to one', async () => {
    expect(await failure(`http://127.0.0.1:${imagePort}/cat.png`)).toContain('private or loopback');
    expect(await failure(`http://localhost:${imagePort}/cat.png`)).toContain('private or loopback');
    expect(await failure(`http://[::1]:${imagePort}/cat.png`)).toContain('private or loopback');
    expect(await failure(`http://intranet.test:${imagePort}/cat.png`)).toContain('private or loopback');
    expect(await failure('ftp://example.com/cat.png')).toContain('only http(s) URLs');
  });

  it('fetches images as data URLs once private addresses are allowed, and refuses what is not an image', async () => {
    settings.ChatImageAllowPrivate = 'true';
    expect(await fetcher.dataUrl(`http://intranet.test:${imagePort}/cat.png`)).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
    expect(await fetcher.dataUrl(`http://127.0.0.1:${imagePort}/mislabelled`)).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
    expect(await failure(`http://127.0.0.1:${imagePort}/page`)).toContain('it is not an image');
    expect(await failure(`http://127.0.0.1:${imagePort}/missing.png`)).toContain('HTTP 404');
    settings.ChatImageAllowPrivate = 'false';
  });

  it('goes through ChatImageRequestProxy, which resolves the name itself', async () => {
    settings.ChatImageRequestProxy = `http://127.0.0.1:${proxyPort}`;
    expect(await fetcher.dataUrl(`http://images.example:${imagePort}/cat.png`)).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
    expect(tunnels).toEqual([`images.example:${imagePort}`]);
    // A literal private address is refused before any proxy is asked.
    expect(await failure(`http://127.0.0.1:${imagePort}/cat.png`)).toContain('private or loopback');
    expect(tunnels).toHaveLength(1);
    settings.ChatImageRequestProxy = '';
  });
});
