import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FLUX,
  mockFileBytes,
  type ReplicateMock,
  startReplicateMock,
} from '../../../test/providers/replicate/mock-upstream.js';
import { mockImage, type StabilityMock, startStabilityMock } from '../../../test/providers/stability/mock-upstream.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';
import { type ImageHostMock, startS3Mock } from '../../../test/storage/image-hosts.js';
import { providerType } from '../../domain/channel-types/registry.js';

/**
 * Image storage on the relay: a server configured with an S3-compatible bucket (a local
 * stand-in) answers URL requests to vendors that give bytes (Stability) or expiring URLs
 * (Replicate) with the stored copy's address, which serves the very image; `b64_json` requests
 * are untouched; an upload that fails leaves the answer as it is without storage (a data URL),
 * still a 200 billed as usual.
 */

const CORE = 'stable-image-core';
const BUCKET = 'generated';
const PER_IMAGE = 15_000;

type Generate = Omit<OpenAI.ImageGenerateParams, 'stream'> & Record<string, unknown>;

describe('generated images kept in image storage', () => {
  let s3: ImageHostMock;
  let stability: StabilityMock;
  let replicate: ReplicateMock;
  let r: RelayTestContext;
  beforeAll(async () => {
    s3 = await startS3Mock(BUCKET, 'AKIA-relay-test');
    stability = await startStabilityMock();
    replicate = await startReplicateMock();
    r = await startRelayTest({
      env: {
        STORAGE_S3_ENDPOINT: s3.url,
        STORAGE_S3_BUCKETNAME: BUCKET,
        STORAGE_S3_ACCESSKEYID: 'AKIA-relay-test',
        STORAGE_S3_ACCESSKEYSECRET: 'relay-test-s3-secret',
      },
    });
    await r.addChannel({
      name: 'stability',
      type: providerType('stability'),
      key: stability.behaviour.apiKey,
      base_url: stability.url,
      models: CORE,
    });
    await r.addChannel({
      name: 'replicate',
      type: providerType('replicate'),
      key: replicate.behaviour.apiKey,
      base_url: replicate.url,
      models: FLUX,
    });
    for (const model of [CORE, FLUX]) await r.setPrice(model, 15, 0);
  });
  afterAll(async () => {
    await r?.close();
    await Promise.all([s3?.close(), stability?.close(), replicate?.close()]);
  });
  beforeEach(() => {
    for (const mock of [s3, stability, replicate]) mock.reset();
  });

  const generate = (params: Generate) => r.client.images.generate(params as OpenAI.ImageGenerateParamsNonStreaming);
  const fetchImage = async (url: string) => {
    const answer = await fetch(url);
    return {
      status: answer.status,
      type: answer.headers.get('content-type'),
      bytes: Buffer.from(await answer.arrayBuffer()),
    };
  };

  it("answers a vendor's image bytes with the bucket's URL of a stored copy", async () => {
    const before = await storedQuota(r);
    const images = await generate({ model: CORE, prompt: 'a lighthouse', n: 2, seed: 5 });
    const urls = images.data?.map((image) => image.url ?? '') ?? [];
    expect(urls).toHaveLength(2);
    const made = stability.received.map((request) => mockImage(request.fields));
    for (const url of urls) {
      expect(url).toMatch(new RegExp(`^${s3.url}/${BUCKET}/\\d{4}-\\d{2}-\\d{2}/[0-9a-f-]{36}\\.png$`));
      const stored = await fetchImage(url);
      expect(stored).toMatchObject({ status: 200, type: 'image/png' });
      expect(made.some((bytes) => bytes.equals(stored.bytes))).toBe(true);
    }
    expect(s3.received).toHaveLength(2);
    expect(before - (await storedQuota(r))).toBe(2 * PER_IMAGE);
  });

  it('leaves b64_json answers alone', async () => {
    const images = await generate({ model: CORE, prompt: 'a fox', response_format: 'b64_json' });
    const sent = stability.received.at(-1);
    expect(images.data).toEqual([{ b64_json: mockImage(sent?.fields ?? {}).toString('base64') }]);
    expect(s3.received).toHaveLength(0);
  });

  it('answers the data URL, as without storage, when the upload fails, and bills the image', async () => {
    s3.behaviour.fail = true;
    const before = await storedQuota(r);
    const images = await generate({ model: CORE, prompt: 'a heron', response_format: 'url' });
    const sent = stability.received.at(-1);
    expect(images.data).toEqual([{ url: `data:image/png;base64,${mockImage(sent?.fields ?? {}).toString('base64')}` }]);
    expect(before - (await storedQuota(r))).toBe(PER_IMAGE);
  });

  it("keeps a copy of Replicate's expiring output files and answers its URL", async () => {
    const images = await generate({ model: FLUX, prompt: 'two owls' });
    const url = images.data?.[0]?.url ?? '';
    expect(url.startsWith(`${s3.url}/${BUCKET}/`)).toBe(true);
    const file = replicate.received.find((request) => request.path.startsWith('/files/'));
    const name = file?.path.slice('/files/'.length) ?? '';
    expect(name).not.toBe('');
    const stored = await fetchImage(url);
    expect(stored).toMatchObject({ status: 200, type: 'image/webp' });
    expect(stored.bytes.equals(mockFileBytes(name))).toBe(true);
  });

  it("answers Replicate's own URL when the copy cannot be stored", async () => {
    s3.behaviour.fail = true;
    const images = await generate({ model: FLUX, prompt: 'an owl' });
    expect(images.data?.[0]?.url).toMatch(new RegExp(`^${replicate.url}/files/\\w+-0\\.webp$`));
  });
});
