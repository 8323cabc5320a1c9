import { createHash, createHmac } from 'node:crypto';
import type { ImageHost } from './image-storage.js';
import { send } from './upload-http.js';

/**
 * Aliyun OSS: `PUT https://<bucket>.<endpoint>/<object>` signed with OSS's V1 header signature,
 * `Authorization: OSS <AccessKeyId>:<base64 HMAC-SHA1 of "VERB\nContent-MD5\nContent-Type\nDate\n
 * /<bucket>/<object>">`. The URL handed back is a signed GET valid for an hour (query parameters
 * OSSAccessKeyId, Expires, Signature), as One Hub gives it, so private buckets work too.
 */

export interface AliOssSettings {
  /** The region's endpoint, e.g. `oss-cn-beijing.aliyuncs.com` (a scheme, if given, is kept). */
  endpoint: string;
  bucketName: string;
  accessKeyId: string;
  accessKeySecret: string;
}

const SIGNED_URL_SECONDS = 3600;

const sign = (secret: string, text: string) => createHmac('sha1', secret).update(text, 'utf8').digest('base64');

/** `https://<bucket>.<host>` from the endpoint, keeping an `http://` the operator wrote. */
export function bucketOrigin(endpoint: string, bucket: string): string {
  const match = /^(https?):\/\/(.*)$/i.exec(endpoint.trim());
  const scheme = match?.[1]?.toLowerCase() ?? 'https';
  const host = (match?.[2] ?? endpoint.trim()).replace(/\/+$/, '');
  return `${scheme}://${bucket}.${host}`;
}

/** OSS's XML error `<Code>` and `<Message>`, or the status alone. */
function errorText(status: number, text: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  return `HTTP ${status}${code ? `: ${code}` : ''}${message ? `: ${message}` : ''}`;
}

/** `origin` (tests only) sends the requests to a stand-in instead of the bucket's own host. */
export function aliOssHost(settings: AliOssSettings, origin?: string): ImageHost {
  const base = origin?.replace(/\/+$/, '') ?? bucketOrigin(settings.endpoint, settings.bucketName);
  return {
    name: 'Aliyun OSS',
    async upload(image) {
      const object = image.fileName;
      const resource = `/${settings.bucketName}/${object}`;
      const md5 = createHash('md5').update(image.bytes).digest('base64');
      const date = new Date().toUTCString();
      const signature = sign(settings.accessKeySecret, `PUT\n${md5}\n${image.contentType}\n${date}\n${resource}`);
      const answer = await send(`${base}/${encodeURIComponent(object)}`, {
        method: 'PUT',
        headers: {
          authorization: `OSS ${settings.accessKeyId}:${signature}`,
          'content-md5': md5,
          'content-type': image.contentType,
          date,
        },
        body: image.bytes,
      });
      if (answer.status !== 200) throw new Error(errorText(answer.status, answer.text));
      const expires = Math.floor(Date.now() / 1000) + SIGNED_URL_SECONDS;
      const query = new URLSearchParams({
        OSSAccessKeyId: settings.accessKeyId,
        Expires: String(expires),
        Signature: sign(settings.accessKeySecret, `GET\n\n\n${expires}\n${resource}`),
      });
      return `${base}/${encodeURIComponent(object)}?${query.toString()}`;
    },
  };
}
