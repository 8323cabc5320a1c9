import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';

/**
 * Image hosting for answers that hold images as bytes (reference §4.13, "storage"): sm.ms, Imgur,
 * Aliyun OSS and S3-compatible buckets, each on when its settings are present. An image is handed
 * to the hosts in a fixed order, the next one tried when one fails; when all fail the caller keeps
 * the image as it was.
 */

/** One image to keep: its bytes, their content type and the file name it is kept under. */
export interface StoredImage {
  bytes: Buffer;
  contentType: string;
  fileName: string;
}

/** One image host. `upload` answers the image's public URL, or throws naming what went wrong. */
export interface ImageHost {
  readonly name: string;
  upload(image: StoredImage): Promise<string>;
}

export interface ImageStorage {
  /** The hosts, in the order they are tried. */
  readonly names: readonly string[];
  /** The image's URL on the first host that took it; undefined when none did (each failure logged). */
  store(bytes: Buffer, contentType: string): Promise<string | undefined>;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** A fresh name for an image, with the extension of its type (png when the type is unknown). */
export function imageFileName(contentType: string): string {
  return `${randomUUID()}.${EXTENSIONS[contentType.toLowerCase()] ?? 'png'}`;
}

/** The hosts as one storage; undefined when none is configured. */
export function chainHosts(hosts: readonly ImageHost[], logger: Logger): ImageStorage | undefined {
  if (hosts.length === 0) return undefined;
  return {
    names: hosts.map((host) => host.name),
    async store(bytes, contentType) {
      const image = { bytes, contentType, fileName: imageFileName(contentType) };
      for (const host of hosts) {
        try {
          return await host.upload(image);
        } catch (error) {
          // The reason only: hosts' messages never carry their keys (each builds its own text).
          const reason = error instanceof Error ? error.message : String(error);
          logger.warn({ host: host.name, reason }, 'storing a generated image failed');
        }
      }
      return undefined;
    },
  };
}
