import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { isOwnPublicKey, readPrivateKey, readPublicKey } from './keys.js';

/** facepay = face-to-face QR (precreate), pagepay = desktop cashier, wappay = mobile browser cashier. */
export const ALIPAY_PAY_TYPES = ['facepay', 'pagepay', 'wappay'] as const;
export type AlipayPayType = (typeof ALIPAY_PAY_TYPES)[number];

const keyField = (field: string, read: (text: string) => KeyObject | string) =>
  z
    .string(`${field} is required`)
    .trim()
    .min(1, `${field} is required`)
    .max(8_000, `${field} must be at most 8000 characters`)
    .superRefine((value, context) => {
      const key = read(value);
      if (typeof key === 'string') context.addIssue({ code: 'custom', message: key });
    });

const alipayFields = z.object({
  app_id: z
    .string('app_id is required')
    .trim()
    .regex(/^\d{1,32}$/, 'app_id must be the APPID of your Alipay application (digits only)'),
  private_key: keyField('private_key', readPrivateKey),
  public_key: keyField('public_key', readPublicKey),
  // One Hub stores "" for the default, so an imported row reads as facepay.
  pay_type: z.preprocess(
    (value) => (value === '' || value === undefined || value === null ? 'facepay' : value),
    z.enum(ALIPAY_PAY_TYPES, `pay_type must be one of: ${ALIPAY_PAY_TYPES.join(', ')}`),
  ),
});

export const alipayConfig = alipayFields.superRefine((config, context) => {
  const privateKey = readPrivateKey(config.private_key);
  const publicKey = readPublicKey(config.public_key);
  if (typeof privateKey === 'string' || typeof publicKey === 'string') return;
  if (isOwnPublicKey(privateKey, publicKey)) {
    context.addIssue({
      code: 'custom',
      path: ['public_key'],
      message:
        "public_key is your application's own public key; paste the Alipay public key (支付宝公钥) shown beside it",
    });
  }
});
export type AlipayConfig = z.infer<typeof alipayConfig>;

export interface AlipayKeys {
  privateKey: KeyObject;
  alipayPublicKey: KeyObject;
}

/**
 * A stored config checked again before use: a row imported from One Hub never went through this
 * schema. Answers the config and its keys, or a sentence naming the field to fix.
 */
export function readConfig(stored: unknown): { config: AlipayConfig; keys: AlipayKeys } | string {
  const parsed = alipayConfig.safeParse(stored);
  if (!parsed.success) return `config: ${parsed.error.issues[0]?.message ?? 'is invalid'}`;
  const privateKey = readPrivateKey(parsed.data.private_key);
  const alipayPublicKey = readPublicKey(parsed.data.public_key);
  if (typeof privateKey === 'string' || typeof alipayPublicKey === 'string') return 'config: unreadable keys';
  return { config: parsed.data, keys: { privateKey, alipayPublicKey } };
}
