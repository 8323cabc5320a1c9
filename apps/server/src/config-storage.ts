import { z } from 'zod';
import { optionalText, optionalUrl } from './config-fields.js';
import type { StorageConfig } from './platform/storage/index.js';

/**
 * Image hosting (reference `storage.{smms,imgur,alioss,s3}.*`), under One Hub's environment names
 * (its keys upper-cased, `.` → `_`). A host is on when all it needs is set; one set in part stops
 * the start with the names of what is missing.
 */

export const storageEnvironment = {
  STORAGE_SMMS_SECRET: optionalText,
  STORAGE_IMGUR_CLIENT_ID: optionalText,
  STORAGE_ALIOSS_ENDPOINT: optionalText,
  STORAGE_ALIOSS_BUCKETNAME: optionalText,
  STORAGE_ALIOSS_ACCESSKEYID: optionalText,
  STORAGE_ALIOSS_ACCESSKEYSECRET: optionalText,
  STORAGE_S3_ENDPOINT: optionalUrl,
  STORAGE_S3_CDNURL: optionalUrl,
  STORAGE_S3_BUCKETNAME: optionalText,
  STORAGE_S3_ACCESSKEYID: optionalText,
  STORAGE_S3_ACCESSKEYSECRET: optionalText,
  STORAGE_S3_REGION: optionalText,
  STORAGE_S3_EXPIRATIONDAYS: z.coerce
    .number('must be a number of days')
    .int('must be a whole number of days')
    .min(0, 'must be 0 (no expiry date) or more')
    .max(36_500, 'must be at most 36500 days')
    .default(0),
};

type StorageEnvironment = { [Key in keyof typeof storageEnvironment]: z.output<(typeof storageEnvironment)[Key]> };

const ALIOSS = [
  'STORAGE_ALIOSS_ENDPOINT',
  'STORAGE_ALIOSS_BUCKETNAME',
  'STORAGE_ALIOSS_ACCESSKEYID',
  'STORAGE_ALIOSS_ACCESSKEYSECRET',
] as const;
const S3 = [
  'STORAGE_S3_ENDPOINT',
  'STORAGE_S3_BUCKETNAME',
  'STORAGE_S3_ACCESSKEYID',
  'STORAGE_S3_ACCESSKEYSECRET',
] as const;

/** For a host set in part: one problem naming what is missing. */
export function storageProblems(env: StorageEnvironment): string[] {
  const problems: string[] = [];
  for (const names of [ALIOSS, S3]) {
    const missing = names.filter((name) => env[name] === undefined);
    if (missing.length > 0 && missing.length < names.length) {
      problems.push(
        `${missing.join(', ')}: must be set together with ${names.filter((name) => !missing.includes(name)).join(', ')}`,
      );
    }
  }
  return problems;
}

export function storageConfig(env: StorageEnvironment): StorageConfig {
  const config: StorageConfig = {};
  if (env.STORAGE_SMMS_SECRET) config.smms = { secret: env.STORAGE_SMMS_SECRET };
  if (env.STORAGE_IMGUR_CLIENT_ID) config.imgur = { clientId: env.STORAGE_IMGUR_CLIENT_ID };
  if (
    env.STORAGE_ALIOSS_ENDPOINT &&
    env.STORAGE_ALIOSS_BUCKETNAME &&
    env.STORAGE_ALIOSS_ACCESSKEYID &&
    env.STORAGE_ALIOSS_ACCESSKEYSECRET
  ) {
    config.alioss = {
      endpoint: env.STORAGE_ALIOSS_ENDPOINT,
      bucketName: env.STORAGE_ALIOSS_BUCKETNAME,
      accessKeyId: env.STORAGE_ALIOSS_ACCESSKEYID,
      accessKeySecret: env.STORAGE_ALIOSS_ACCESSKEYSECRET,
    };
  }
  if (
    env.STORAGE_S3_ENDPOINT &&
    env.STORAGE_S3_BUCKETNAME &&
    env.STORAGE_S3_ACCESSKEYID &&
    env.STORAGE_S3_ACCESSKEYSECRET
  ) {
    config.s3 = {
      endpoint: env.STORAGE_S3_ENDPOINT,
      bucketName: env.STORAGE_S3_BUCKETNAME,
      accessKeyId: env.STORAGE_S3_ACCESSKEYID,
      accessKeySecret: env.STORAGE_S3_ACCESSKEYSECRET,
      cdnUrl: env.STORAGE_S3_CDNURL,
      region: env.STORAGE_S3_REGION,
      expirationDays: env.STORAGE_S3_EXPIRATIONDAYS,
    };
  }
  return config;
}
