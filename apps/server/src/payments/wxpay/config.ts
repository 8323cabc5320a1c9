import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import { z } from 'zod';
import type { MerchantCredentials, PlatformKey } from './sign.js';

/** Native (a QR code the payer scans) is the only WeChat Pay product this gateway offers. */
export const WXPAY_PAY_TYPES = ['Native'] as const;

const CERTIFICATE_HEADER = '-----BEGIN CERTIFICATE-----';

/** An RSA private key from PEM text (the merchant's `apiclient_key.pem`), or a reason it is not one. */
function readPrivateKey(pem: string): KeyObject | string {
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'rsa' ? key : `is a ${key.asymmetricKeyType} key, not RSA`;
  } catch {
    return 'is not a PEM private key (paste all of apiclient_key.pem, BEGIN and END lines included)';
  }
}

/**
 * WeChat Pay's RSA public key from the "WeChat Pay public key" PEM (`pub_key.pem`), or from an older
 * platform certificate, whose serial number is then its id.
 */
function readPublicKey(pem: string): { key: KeyObject; certificateSerial?: string } | string {
  try {
    if (pem.includes(CERTIFICATE_HEADER)) {
      const certificate = new X509Certificate(pem);
      const key = certificate.publicKey;
      return key.asymmetricKeyType === 'rsa'
        ? { key, certificateSerial: certificate.serialNumber.toUpperCase() }
        : 'is not an RSA certificate';
    }
    const key = createPublicKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'rsa' ? { key } : `is a ${key.asymmetricKeyType} key, not RSA`;
  } catch {
    return 'is not a PEM public key or certificate (paste all of pub_key.pem, BEGIN and END lines included)';
  }
}

const required = (field: string, max: number) =>
  z
    .string(`${field} is required`)
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

const wxpayFields = z.object({
  app_id: required('app_id', 32),
  mch_id: required('mch_id', 32).regex(/^\d+$/, 'mch_id must be the merchant number (digits only)'),
  mch_certificate_serial_number: required('mch_certificate_serial_number', 64).regex(
    /^[0-9A-Fa-f]+$/,
    'mch_certificate_serial_number must be the hexadecimal serial number of the merchant API certificate',
  ),
  mch_apiv3_key: z.string('mch_apiv3_key is required').refine((value) => Buffer.byteLength(value, 'utf8') === 32, {
    message: 'mch_apiv3_key must be exactly 32 characters (the APIv3 key)',
  }),
  mch_private_key: required('mch_private_key', 8_000).superRefine((value, context) => {
    const key = readPrivateKey(value);
    if (typeof key === 'string') context.addIssue({ code: 'custom', message: `mch_private_key ${key}` });
  }),
  wechatpay_public_key: required('wechatpay_public_key', 8_000).superRefine((value, context) => {
    const key = readPublicKey(value);
    if (typeof key === 'string') context.addIssue({ code: 'custom', message: `wechatpay_public_key ${key}` });
  }),
  wechatpay_public_key_id: z.string('wechatpay_public_key_id must be a string').trim().max(64).default(''),
  pay_type: z
    .enum(WXPAY_PAY_TYPES, 'pay_type must be Native: the only WeChat Pay product this gateway supports')
    .default('Native'),
});

/**
 * A platform certificate carries its own serial number, so its id may be left empty; a public key
 * needs the PUB_KEY_ID_… WeChat Pay shows beside it.
 */
export const wxpayConfig = wxpayFields.transform((config, context) => {
  if (config.wechatpay_public_key_id) return config;
  const key = readPublicKey(config.wechatpay_public_key);
  if (typeof key !== 'string' && key.certificateSerial)
    return { ...config, wechatpay_public_key_id: key.certificateSerial };
  context.addIssue({
    code: 'custom',
    path: ['wechatpay_public_key_id'],
    message: 'wechatpay_public_key_id is required: the PUB_KEY_ID_… shown beside the WeChat Pay public key',
  });
  return z.NEVER;
});
export type WxpayConfig = z.infer<typeof wxpayConfig>;

export interface WxpayKeys {
  merchant: MerchantCredentials;
  platform: PlatformKey;
}

/**
 * The keys a stored config names, checked again because a config imported from One Hub was never
 * through this schema (it has no WeChat Pay public key). Throws an Error naming the field to fix.
 */
export function readKeys(stored: unknown): { config: WxpayConfig; keys: WxpayKeys } {
  const parsed = wxpayConfig.safeParse(stored);
  if (!parsed.success) throw new Error(`config: ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  const config = parsed.data;
  const privateKey = readPrivateKey(config.mch_private_key);
  const publicKey = readPublicKey(config.wechatpay_public_key);
  if (typeof privateKey === 'string' || typeof publicKey === 'string') throw new Error('config: unreadable keys');
  return {
    config,
    keys: {
      merchant: { mchId: config.mch_id, serialNo: config.mch_certificate_serial_number, privateKey },
      platform: { id: config.wechatpay_public_key_id, publicKey: publicKey.key },
    },
  };
}
