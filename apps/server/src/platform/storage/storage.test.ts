import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ImageHostMock,
  startImgurMock,
  startOssMock,
  startS3Mock,
  startSmmsMock,
} from '../../../test/storage/image-hosts.js';
import { createLogger } from '../logger.js';
import { aliOssHost, bucketOrigin } from './alioss.js';
import { chainHosts, type ImageHost } from './image-storage.js';
import { imgurHost } from './imgur.js';
import { s3Host } from './s3.js';
import { smmsHost } from './smms.js';

/**
 * Each image host against a local stand-in speaking its API: the upload is authenticated as the
 * host documents it, the URL answered serves the very bytes, and a host's refusal is an error
 * naming its reason (never a key). The chain tries the hosts in order and logs each failure.
 */

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('a small png body')]);
const image = (fileName = 'cat.png', bytes = PNG) => ({ bytes, contentType: 'image/png', fileName });
const SMMS_SECRET = 'smms-secret-7f3a';
const IMGUR_CLIENT = 'imgur-client-91c2';
const OSS = { bucketName: 'hub-images', accessKeyId: 'LTAI-test-id', accessKeySecret: 'oss-secret-55d1' };
const S3 = { bucketName: 'generated', accessKeyId: 'AKIA-test-id', accessKeySecret: 's3-secret-c0ffee' };

async function served(url: string): Promise<{ status: number; bytes: Buffer; contentType: string | null }> {
  const answer = await fetch(url);
  return {
    status: answer.status,
    bytes: Buffer.from(await answer.arrayBuffer()),
    contentType: answer.headers.get('content-type'),
  };
}

const mocks: ImageHostMock[] = [];
async function started(mock: Promise<ImageHostMock>): Promise<ImageHostMock> {
  const running = await mock;
  mocks.push(running);
  return running;
}
afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.close()));
});
beforeEach(() => {
  for (const mock of mocks) mock.reset();
});

describe('sm.ms', () => {
  let mock: ImageHostMock;
  beforeAll(async () => {
    mock = await started(startSmmsMock(SMMS_SECRET));
  });
  const host = () => smmsHost(SMMS_SECRET, `${mock.url}/api/v2`);

  it('uploads the file as smfile with the token as Authorization, and answers data.url', async () => {
    const url = await host().upload(image('a1.png'));
    expect(mock.received).toHaveLength(1);
    expect(mock.received[0]).toMatchObject({ field: 'smfile', fileName: 'a1.png', contentType: 'image/png' });
    expect(await served(url)).toEqual({ status: 200, bytes: PNG, contentType: 'image/png' });
  });

  it('answers the URL sm.ms already has for an image it holds (image_repeated)', async () => {
    const first = await host().upload(image('b1.png'));
    expect(await host().upload(image('b2.png'))).toBe(first);
  });

  it("fails with sm.ms's code and message", async () => {
    mock.behaviour.fail = true;
    await expect(host().upload(image())).rejects.toThrow('HTTP 200: flood: Upload file frequency limit.');
    await expect(smmsHost('wrong-secret', `${mock.url}/api/v2`).upload(image())).rejects.toThrow('unauthorized');
  });
});

describe('Imgur', () => {
  let mock: ImageHostMock;
  beforeAll(async () => {
    mock = await started(startImgurMock(IMGUR_CLIENT));
  });

  it('uploads the file as image with Client-ID, and answers data.link', async () => {
    const url = await imgurHost(IMGUR_CLIENT, `${mock.url}/3`).upload(image('c1.png'));
    expect(mock.received[0]).toMatchObject({ field: 'image', fileName: 'c1.png' });
    expect(mock.received[0]?.headers.authorization).toBe(`Client-ID ${IMGUR_CLIENT}`);
    expect((await served(url)).bytes).toEqual(PNG);
  });

  it("fails with Imgur's data.error", async () => {
    await expect(imgurHost('someone-else', `${mock.url}/3`).upload(image())).rejects.toThrow(
      'HTTP 403: Invalid client_id',
    );
    mock.behaviour.fail = true;
    await expect(imgurHost(IMGUR_CLIENT, `${mock.url}/3`).upload(image())).rejects.toThrow('HTTP 429');
  });
});

describe('Aliyun OSS', () => {
  let mock: ImageHostMock;
  beforeAll(async () => {
    mock = await started(startOssMock(OSS.bucketName, OSS.accessKeyId, OSS.accessKeySecret));
  });
  const settings = { ...OSS, endpoint: 'oss-cn-beijing.aliyuncs.com' };

  it('addresses the bucket on the endpoint, https unless the endpoint says http', () => {
    expect(bucketOrigin('oss-cn-beijing.aliyuncs.com', 'b')).toBe('https://b.oss-cn-beijing.aliyuncs.com');
    expect(bucketOrigin('http://oss-cn-hangzhou-internal.aliyuncs.com/', 'b')).toBe(
      'http://b.oss-cn-hangzhou-internal.aliyuncs.com',
    );
  });

  it('PUTs the object with a V1 signature and Content-MD5, and answers a signed GET URL that serves it', async () => {
    const url = await aliOssHost(settings, mock.url).upload(image('d1.png'));
    expect(mock.received[0]).toMatchObject({ method: 'PUT', path: '/d1.png', contentType: 'image/png' });
    const query = new URL(url).searchParams;
    expect(query.get('OSSAccessKeyId')).toBe(OSS.accessKeyId);
    expect(Number(query.get('Expires'))).toBeGreaterThan(Date.now() / 1000);
    expect(await served(url)).toEqual({ status: 200, bytes: PNG, contentType: 'image/png' });
    expect((await served(url.replace(/Signature=[^&]+/, 'Signature=forged'))).status).toBe(403);
  });

  it("fails with OSS's error code when the signature or the bucket refuses, never quoting the secret", async () => {
    const wrong = aliOssHost({ ...settings, accessKeySecret: 'not-the-secret' }, mock.url);
    const refusal = wrong.upload(image());
    await expect(refusal).rejects.toThrow('HTTP 403: SignatureDoesNotMatch');
    await expect(refusal).rejects.not.toThrow('not-the-secret');
    mock.behaviour.fail = true;
    await expect(aliOssHost(settings, mock.url).upload(image())).rejects.toThrow('HTTP 403: AccessDenied');
  });
});

describe('S3-compatible buckets', () => {
  let mock: ImageHostMock;
  beforeAll(async () => {
    mock = await started(startS3Mock(S3.bucketName, S3.accessKeyId));
  });
  const NOW = Date.parse('2026-12-06T21:30:00Z');
  const settings = () => ({ ...S3, endpoint: mock.url, expirationDays: 0 });

  it('PUTs <date>/<file> path-style with a SigV4 Authorization, answering <endpoint>/<bucket>/<key>', async () => {
    const url = await s3Host(settings(), () => NOW).upload(image('e1.png'));
    expect(url).toBe(`${mock.url}/${S3.bucketName}/2026-12-06/e1.png`);
    expect(mock.received[0]).toMatchObject({ path: `/${S3.bucketName}/2026-12-06/e1.png`, contentType: 'image/png' });
    expect(mock.received[0]?.headers.expires).toBeUndefined();
    expect(await served(url)).toEqual({ status: 200, bytes: PNG, contentType: 'image/png' });
  });

  it('answers the CDN address when one is set, and dates the object expirationDays ahead', async () => {
    const host = s3Host({ ...settings(), cdnUrl: 'https://pub-images.r2.dev/', expirationDays: 3 }, () => NOW);
    expect(await host.upload(image('e2.png'))).toBe('https://pub-images.r2.dev/2026-12-06/e2.png');
    expect(mock.received[0]?.headers.expires).toBe('Wed, 09 Dec 2026 21:30:00 GMT');
  });

  it('fails with the status and S3 error code', async () => {
    mock.behaviour.fail = true;
    await expect(s3Host(settings()).upload(image())).rejects.toThrow(/^HTTP 403: AccessDenied/);
  });
});

describe('the chain of hosts', () => {
  const failing = (name: string): ImageHost => ({
    name,
    upload: () => Promise.reject(new Error(`${name} is full`)),
  });
  const working = (name: string, calls: string[]): ImageHost => ({
    name,
    upload: async (stored) => {
      calls.push(stored.fileName);
      return `https://${name}/${stored.fileName}`;
    },
  });

  it('is none without hosts', () => {
    expect(chainHosts([], createLogger('silent'))).toBeUndefined();
  });

  it('tries the hosts in order, logging each failure, and names files by type', async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => lines.push(line) });
    const calls: string[] = [];
    const storage = chainHosts([failing('first'), working('second', calls), working('third', [])], logger);
    const url = await storage?.store(PNG, 'image/jpeg');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect(url).toBe(`https://second/${calls[0]}`);
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { host: 'first', reason: 'first is full', msg: 'storing a generated image failed' },
    ]);
  });

  it('answers undefined when every host failed', async () => {
    const storage = chainHosts([failing('a'), failing('b')], createLogger('silent'));
    expect(await storage?.store(PNG, 'image/png')).toBeUndefined();
  });
});
