import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAlipayGateway } from '../../../src/payments/alipay/index.js';
import { privateKeyText, publicKeyText, rsaPair } from './vendor.js';

const gateway = createAlipayGateway({ alipayGateway: 'http://127.0.0.1:1/gateway.do' });
const merchant = rsaPair();
const alipay = rsaPair();

const valid = {
  app_id: '2021004100000001',
  private_key: privateKeyText(merchant.privateKey, 'bare-pkcs1'),
  public_key: publicKeyText(alipay.publicKey),
  pay_type: 'facepay',
};

/** The first message the schema gives for a config, or undefined when it is accepted. */
function problem(config: Record<string, unknown>): string | undefined {
  const parsed = gateway.configSchema.safeParse(config);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

describe('Alipay config', () => {
  it.each(['bare-pkcs1', 'bare-pkcs8', 'pem-pkcs1', 'pem-pkcs8'] as const)(
    'accepts the private key as %s',
    (format) => {
      expect(problem({ ...valid, private_key: privateKeyText(merchant.privateKey, format) })).toBeUndefined();
    },
  );

  it('accepts Alipay public key bare, as PEM, and as a PKCS#1 PEM; a key broken over lines too', () => {
    expect(problem({ ...valid, public_key: publicKeyText(alipay.publicKey, 'pem') })).toBeUndefined();
    const pkcs1 = alipay.publicKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    expect(problem({ ...valid, public_key: pkcs1 })).toBeUndefined();
    const wrapped = valid.public_key.replace(/(.{64})/g, '$1\n');
    expect(problem({ ...valid, public_key: wrapped })).toBeUndefined();
  });

  it('reads an empty pay_type (One Hub default) as facepay and refuses an unknown one', () => {
    const parsed = gateway.configSchema.parse({ ...valid, pay_type: '' });
    expect(parsed.pay_type).toBe('facepay');
    expect(gateway.configSchema.parse({ ...valid, pay_type: undefined }).pay_type).toBe('facepay');
    expect(problem({ ...valid, pay_type: 'scan' })).toBe('pay_type must be one of: facepay, pagepay, wappay');
  });

  it('refuses the application public key where Alipay public key belongs', () => {
    expect(problem({ ...valid, public_key: publicKeyText(merchant.publicKey) })).toMatch(
      /application's own public key/,
    );
  });

  it('refuses a certificate, a private key and garbage as public_key', () => {
    const certificate = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    expect(problem({ ...valid, public_key: certificate })).toMatch(/certificate.*public-key mode/);
    expect(problem({ ...valid, public_key: privateKeyText(alipay.privateKey, 'pem-pkcs8') })).toMatch(
      /is a private key/,
    );
    expect(problem({ ...valid, public_key: 'not a key' })).toMatch(/public_key is not an RSA public key/);
  });

  it('refuses unreadable, short and non-RSA private keys, naming the field', () => {
    expect(problem({ ...valid, private_key: 'MIIEvQIBADANBg' })).toMatch(/^private_key is not an RSA private key/);
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(problem({ ...valid, private_key: privateKeyText(short, 'pem-pkcs8') })).toBe(
      'private_key is a 1024-bit RSA key; RSA2 needs 2048 bits',
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    expect(problem({ ...valid, private_key: ec })).toBe('private_key is a ec key, not RSA');
  });

  it('requires a numeric app_id and every key', () => {
    expect(problem({ ...valid, app_id: 'abc' })).toMatch(/app_id must be the APPID/);
    expect(problem({ ...valid, private_key: '' })).toBe('private_key is required');
    const { public_key: _omitted, ...withoutPublic } = valid;
    expect(problem(withoutPublic)).toBe('public_key is required');
  });

  it('keeps the private key write-only', () => {
    expect(gateway.secretFields).toEqual(['private_key']);
  });
});
