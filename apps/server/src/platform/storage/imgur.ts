import type { ImageHost } from './image-storage.js';
import { fileForm, jsonAnswer, send } from './upload-http.js';

/**
 * Imgur (API 3): `POST /image`, multipart with the file as `image`, anonymous uploads authorised
 * by `Authorization: Client-ID <client id>`. It answers `{data: {link, …}, success, status}`;
 * a failure is `success: false` with `data.error`.
 */

export const IMGUR_API_BASE = 'https://api.imgur.com/3';

export function imgurHost(clientId: string, apiBase = IMGUR_API_BASE): ImageHost {
  return {
    name: 'Imgur',
    async upload(image) {
      const form = fileForm({
        field: 'image',
        name: image.fileName,
        contentType: image.contentType,
        bytes: image.bytes,
      });
      const answer = await send(`${apiBase.replace(/\/+$/, '')}/image`, {
        method: 'POST',
        headers: { authorization: `Client-ID ${clientId}`, 'content-type': form.contentType },
        body: form.body,
      });
      const body = jsonAnswer(answer);
      const data = body.data as Record<string, unknown> | undefined;
      if (body.success === true && typeof data?.link === 'string' && data.link) return data.link;
      const error = data?.error as unknown;
      const reason =
        typeof error === 'string'
          ? error
          : typeof (error as { message?: unknown } | undefined)?.message === 'string'
            ? (error as { message: string }).message
            : `status ${String(body.status ?? answer.status)}`;
      throw new Error(`HTTP ${answer.status}: ${reason}`);
    },
  };
}
