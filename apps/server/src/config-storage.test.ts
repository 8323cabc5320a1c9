import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

/** STORAGE_*: One Hub's `storage.*` keys as environment variables, each host on when complete. */

const base = () => ({
  SESSION_SECRET: 'config-test-secret-0123',
  SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'one-hub-storage-')), 'x.db'),
});

const ALIOSS = {
  STORAGE_ALIOSS_ENDPOINT: 'oss-cn-beijing.aliyuncs.com',
  STORAGE_ALIOSS_BUCKETNAME: 'hub-images',
  STORAGE_ALIOSS_ACCESSKEYID: 'LTAI-id',
  STORAGE_ALIOSS_ACCESSKEYSECRET: 'oss-secret',
};
const S3 = {
  STORAGE_S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com',
  STORAGE_S3_BUCKETNAME: 'images',
  STORAGE_S3_ACCESSKEYID: 's3-id',
  STORAGE_S3_ACCESSKEYSECRET: 's3-secret',
};

describe('image storage settings', () => {
  it('are empty by default', () => {
    expect(loadConfig(base()).storage).toEqual({});
  });

  it('read every host One Hub has, under its environment names', () => {
    const config = loadConfig({
      ...base(),
      STORAGE_SMMS_SECRET: 'smms-token',
      STORAGE_IMGUR_CLIENT_ID: 'imgur-id',
      ...ALIOSS,
      ...S3,
      STORAGE_S3_CDNURL: 'https://pub-1.r2.dev',
      STORAGE_S3_EXPIRATIONDAYS: '3',
    });
    expect(config.storage).toEqual({
      smms: { secret: 'smms-token' },
      imgur: { clientId: 'imgur-id' },
      alioss: {
        endpoint: 'oss-cn-beijing.aliyuncs.com',
        bucketName: 'hub-images',
        accessKeyId: 'LTAI-id',
        accessKeySecret: 'oss-secret',
      },
      s3: {
        endpoint: 'https://account.r2.cloudflarestorage.com',
        bucketName: 'images',
        accessKeyId: 's3-id',
        accessKeySecret: 's3-secret',
        cdnUrl: 'https://pub-1.r2.dev',
        region: undefined,
        expirationDays: 3,
      },
    });
  });

  it('refuse a host set in part, naming what is missing', () => {
    const { STORAGE_ALIOSS_ACCESSKEYSECRET: _secret, ...partial } = ALIOSS;
    expect(() => loadConfig({ ...base(), ...partial })).toThrow(
      'STORAGE_ALIOSS_ACCESSKEYSECRET: must be set together with STORAGE_ALIOSS_ENDPOINT, STORAGE_ALIOSS_BUCKETNAME, STORAGE_ALIOSS_ACCESSKEYID',
    );
    expect(() => loadConfig({ ...base(), STORAGE_S3_ENDPOINT: S3.STORAGE_S3_ENDPOINT })).toThrow(
      'STORAGE_S3_BUCKETNAME, STORAGE_S3_ACCESSKEYID, STORAGE_S3_ACCESSKEYSECRET: must be set together with STORAGE_S3_ENDPOINT',
    );
  });

  it('refuse an endpoint that is no URL and a negative or fractional expiry', () => {
    expect(() => loadConfig({ ...base(), ...S3, STORAGE_S3_ENDPOINT: 'r2 bucket' })).toThrow(
      'STORAGE_S3_ENDPOINT: must be a URL',
    );
    expect(() => loadConfig({ ...base(), ...S3, STORAGE_S3_EXPIRATIONDAYS: '-1' })).toThrow(
      'STORAGE_S3_EXPIRATIONDAYS: must be 0 (no expiry date) or more',
    );
    expect(() => loadConfig({ ...base(), ...S3, STORAGE_S3_EXPIRATIONDAYS: '1.5' })).toThrow(
      'STORAGE_S3_EXPIRATIONDAYS: must be a whole number of days',
    );
  });
});
