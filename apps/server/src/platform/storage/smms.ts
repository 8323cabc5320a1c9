import type { ImageHost } from './image-storage.js';
import { fileForm, jsonAnswer, send } from './upload-http.js';

/**
 * sm.ms (API v2): `POST /upload`, multipart with the image as `smfile`, the API token as the whole
 * `Authorization` header. It answers `{success, code, message, data: {url, …}}`; an image it
 * already holds is `success: false, code: "image_repeated"` with that image's URL in `images`.
 */

export const SMMS_API_BASE = 'https://sm.ms/api/v2';

export function smmsHost(secret: string, apiBase = SMMS_API_BASE): ImageHost {
  return {
    name: 'sm.ms',
    async upload(image) {
      const form = fileForm(
        { field: 'smfile', name: image.fileName, contentType: image.contentType, bytes: image.bytes },
        [['format', 'json']],
      );
      const answer = await send(`${apiBase.replace(/\/+$/, '')}/upload`, {
        method: 'POST',
        headers: { authorization: secret, 'content-type': form.contentType },
        body: form.body,
      });
      const body = jsonAnswer(answer);
      const data = body.data as Record<string, unknown> | undefined;
      if (body.success === true && typeof data?.url === 'string' && data.url) return data.url;
      if (body.code === 'image_repeated' && typeof body.images === 'string' && body.images) return body.images;
      const message = typeof body.message === 'string' ? body.message : 'no message';
      throw new Error(`HTTP ${answer.status}: ${String(body.code ?? 'error')}: ${message}`);
    },
  };
}
