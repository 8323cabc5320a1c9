import { describe, expect, it } from 'vitest';
import type { ImageStorage } from '../../platform/storage/index.js';
import type { AdapterContext, FollowUp, WholeBodyAdapter } from '../providers/types.js';
import { type ImageStoring, wantsImageUrls, withStoredImages } from './stored-images.js';

/** Which answered images are handed to image storage, and what the client gets when it fails. */

const PNG = Buffer.from('89504e470d0a1a0a01020304', 'hex');
const DATA_URL = `data:image/jpeg;base64,${PNG.toString('base64')}`;

function storing(adapter: Partial<WholeBodyAdapter>, answer: (bytes: Buffer, type: string) => string | undefined) {
  const stored: Array<{ bytes: Buffer; contentType: string }> = [];
  const storage: ImageStorage = {
    names: ['test'],
    store: async (bytes, contentType) => {
      stored.push({ bytes, contentType });
      return answer(bytes, contentType);
    },
  };
  const follow: FollowUp = () => Promise.reject(new Error('no follow-ups here'));
  const options: ImageStoring = {
    storage,
    adapter: { build: () => ({ url: '', method: 'POST', headers: {}, body: '' }), parse: () => ({}), ...adapter },
    context: {} as AdapterContext,
    follow,
  };
  return { stored, options };
}

describe('wantsImageUrls', () => {
  it('is true for image endpoints asked for url or nothing, false otherwise', () => {
    expect(wantsImageUrls('/v1/images/generations', {})).toBe(true);
    expect(wantsImageUrls('/v1/images/edits', { response_format: 'url' })).toBe(true);
    expect(wantsImageUrls('/v1/images/generations', { response_format: 'b64_json' })).toBe(false);
    expect(wantsImageUrls('/v1/audio/speech', {})).toBe(false);
  });
});

describe('withStoredImages', () => {
  it('stores data URLs with their content type and answers the stored address', async () => {
    const { stored, options } = storing({}, () => 'https://host/kept.jpg');
    const body = await withStoredImages({ created: 1, data: [{ url: DATA_URL, revised_prompt: 'x' }] }, options);
    expect(body).toEqual({ created: 1, data: [{ url: 'https://host/kept.jpg', revised_prompt: 'x' }] });
    expect(stored).toEqual([{ bytes: PNG, contentType: 'image/jpeg' }]);
  });

  it('leaves lasting URLs and b64_json items alone when the vendor says nothing of expiry', async () => {
    const { stored, options } = storing({}, () => 'https://host/never');
    const answer = { data: [{ url: 'https://cdn.vendor/image.png' }, { b64_json: 'AAAA' }] };
    expect(await withStoredImages(answer, options)).toEqual(answer);
    expect(stored).toHaveLength(0);
  });

  it("stores an expiring URL's image, and keeps the URL when it cannot be fetched or stored", async () => {
    const fetched = storing(
      { expiringImage: async () => ({ bytes: PNG, contentType: 'image/webp' }) },
      (_bytes, type) => `https://host/copy.${type.split('/')[1]}`,
    );
    expect(await withStoredImages({ data: [{ url: 'https://files.vendor/a' }] }, fetched.options)).toEqual({
      data: [{ url: 'https://host/copy.webp' }],
    });
    const unreachable = storing({ expiringImage: () => Promise.reject(new Error('gone')) }, () => 'https://host/x');
    expect(await withStoredImages({ data: [{ url: 'https://files.vendor/b' }] }, unreachable.options)).toEqual({
      data: [{ url: 'https://files.vendor/b' }],
    });
    expect(unreachable.stored).toHaveLength(0);
    const refused = storing({}, () => undefined);
    expect(await withStoredImages({ data: [{ url: DATA_URL }] }, refused.options)).toEqual({
      data: [{ url: DATA_URL }],
    });
  });
});
