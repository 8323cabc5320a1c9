import { isRecord, type Json } from '@one-hub/contracts';
import type { ImageStorage } from '../../platform/storage/index.js';
import type { AdapterContext, FollowUp, StoredImageBytes, WholeBodyAdapter } from '../providers/types.js';

/**
 * Image answers asked for as URLs (`response_format` absent or `url`) whose images are no lasting
 * address: the bytes a vendor answered (given to the client as a `data:` URL) and the output URLs
 * that expire (Replicate's). With image storage configured, each such image is uploaded and its
 * `url` becomes the host's. An image no host took, or that could not be fetched, stays as it was
 * (the data URL, the vendor's URL): the image was made and paid for, so it is never turned into an
 * error. Without image storage, answers go out unchanged.
 */

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s;

export interface ImageStoring {
  storage: ImageStorage;
  adapter: WholeBodyAdapter;
  context: AdapterContext;
  follow: FollowUp;
}

/** Whether the endpoint answers images and the client wants them as URLs. */
export function wantsImageUrls(path: string, request: Json): boolean {
  if (!path.startsWith('/v1/images/')) return false;
  const format = request.response_format;
  return format === undefined || format === null || format === '' || format === 'url';
}

/** The image behind one answered URL, when it needs a lasting copy; undefined when it does not. */
async function imageBehind(url: string, storing: ImageStoring): Promise<StoredImageBytes | undefined> {
  const inline = DATA_URL.exec(url);
  if (inline) return { bytes: Buffer.from(inline[2] ?? '', 'base64'), contentType: inline[1] ?? 'image/png' };
  const { adapter, context, follow } = storing;
  return adapter.expiringImage ? await adapter.expiringImage(url, context, follow) : undefined;
}

async function lastingUrl(url: string, storing: ImageStoring): Promise<string> {
  let image: StoredImageBytes | undefined;
  try {
    image = await imageBehind(url, storing);
  } catch {
    // The vendor's URL still works for a while: it is what the client gets without storage.
    return url;
  }
  if (!image || image.bytes.length === 0) return url;
  return (await storing.storage.store(image.bytes, image.contentType)) ?? url;
}

/** The answer with each image URL that needs it replaced by its stored copy's. */
export async function withStoredImages(body: Json, storing: ImageStoring): Promise<Json> {
  if (!Array.isArray(body.data)) return body;
  const data = await Promise.all(
    body.data.map(async (item: unknown) =>
      isRecord(item) && typeof item.url === 'string' && item.url
        ? { ...item, url: await lastingUrl(item.url, storing) }
        : item,
    ),
  );
  return { ...body, data };
}
