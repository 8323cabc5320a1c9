import type { S3Client } from '@aws-sdk/client-s3';
import type { ImageHost } from './image-storage.js';

/**
 * An S3-compatible bucket (AWS, Cloudflare R2, MinIO…) through the official SDK: a PutObject of
 * `<YYYY-MM-DD>/<file>` at the configured endpoint, path-style, region `auto` unless one is set.
 * The URL handed back is `<cdnurl>/<key>`, or without a CDN URL the path-style address
 * `<endpoint>/<bucket>/<key>`. With `expirationDays` the object carries an `Expires` header that
 * many days ahead (as One Hub sets it): it tells caches when to let go; deleting old images is
 * the bucket's lifecycle rule's work.
 */

export interface S3Settings {
  endpoint: string;
  bucketName: string;
  accessKeyId: string;
  accessKeySecret: string;
  /** Public address of the bucket's objects (a CDN or r2.dev domain); empty: the endpoint's. */
  cdnUrl?: string | undefined;
  /** Days until the object's Expires date; 0: no Expires. */
  expirationDays: number;
  region?: string | undefined;
}

const DAY_MS = 86_400_000;

const datePrefix = (now: Date) => now.toISOString().slice(0, 10);

/** The SDK is large: loaded at the first upload, so servers without S3 storage never load it. */
async function s3Client(settings: S3Settings, endpoint: string): Promise<S3Client> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  return new S3Client({
    endpoint,
    region: settings.region || 'auto',
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.accessKeySecret },
    // Checksums only where S3 requires them: most S3-compatible stores reject the SDK's newer default ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
}

export function s3Host(settings: S3Settings, clock: () => number = Date.now): ImageHost {
  const endpoint = settings.endpoint.replace(/\/+$/, '');
  let client: Promise<S3Client> | undefined;
  const publicBase = settings.cdnUrl?.replace(/\/+$/, '') || `${endpoint}/${settings.bucketName}`;
  return {
    name: 'S3',
    async upload(image) {
      const now = new Date(clock());
      const key = `${datePrefix(now)}/${image.fileName}`;
      try {
        client ??= s3Client(settings, endpoint);
        const { PutObjectCommand } = await import('@aws-sdk/client-s3');
        await (await client).send(
          new PutObjectCommand({
            Bucket: settings.bucketName,
            Key: key,
            Body: image.bytes,
            ContentType: image.contentType,
            ...(settings.expirationDays > 0
              ? { Expires: new Date(now.getTime() + settings.expirationDays * DAY_MS) }
              : {}),
          }),
          { abortSignal: AbortSignal.timeout(30_000) },
        );
      } catch (error) {
        // The SDK's own message and status; it never includes the credentials.
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw new Error(status ? `HTTP ${status}: ${reason}` : reason);
      }
      return `${publicBase}/${key}`;
    },
  };
}
