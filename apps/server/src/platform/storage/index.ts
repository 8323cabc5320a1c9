import type { Logger } from '../logger.js';
import { type AliOssSettings, aliOssHost } from './alioss.js';
import { chainHosts, type ImageHost, type ImageStorage } from './image-storage.js';
import { imgurHost } from './imgur.js';
import { type S3Settings, s3Host } from './s3.js';
import { smmsHost } from './smms.js';

export type { ImageStorage } from './image-storage.js';

/** The image hosts configured (STORAGE_* in config.ts); each present only when all it needs is set. */
export interface StorageConfig {
  smms?: { secret: string };
  imgur?: { clientId: string };
  alioss?: AliOssSettings;
  s3?: S3Settings;
}

/**
 * The configured hosts in the order they are tried: Imgur, sm.ms, Aliyun OSS, S3 (One Hub's
 * start-up order; One Hub itself tries them in no fixed order). Undefined when none is configured.
 */
export function createImageStorage(config: StorageConfig, logger: Logger): ImageStorage | undefined {
  const hosts: ImageHost[] = [];
  if (config.imgur) hosts.push(imgurHost(config.imgur.clientId));
  if (config.smms) hosts.push(smmsHost(config.smms.secret));
  if (config.alioss) hosts.push(aliOssHost(config.alioss));
  if (config.s3) hosts.push(s3Host(config.s3));
  return chainHosts(hosts, logger);
}
