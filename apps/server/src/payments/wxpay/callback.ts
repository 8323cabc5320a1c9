import { PAYMENT_CURRENCIES, type PaymentCurrency } from '@one-hub/contracts';
import { z } from 'zod';
import type { GatewayCallback, GatewayCallbackResult } from '../gateway.js';
import { readKeys } from './config.js';
import { decryptResource, signatureProblem } from './sign.js';

/** The notification envelope WeChat Pay posts ("支付成功回调通知"): signed, with the transaction sealed in `resource`. */
const notification = z.object({
  id: z.string(),
  event_type: z.string(),
  resource: z.object({
    algorithm: z.string(),
    ciphertext: z.string().min(1),
    nonce: z.string().min(1),
    associated_data: z.string().optional(),
  }),
});

/** Only the fields of the decrypted transaction that decide a credit. Amounts are integers in fen. */
const transaction = z.object({
  mchid: z.string(),
  appid: z.string(),
  out_trade_no: z.string().min(1),
  transaction_id: z.string().min(1),
  trade_state: z.string(),
  amount: z.object({
    total: z.number().int().nonnegative(),
    payer_total: z.number().int().nonnegative().optional(),
    currency: z.string(),
  }),
});

const PAID_EVENT = 'TRANSACTION.SUCCESS';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const firstIssue = (error: z.ZodError): string => error.issues[0]?.path.join('.') || 'body';

/**
 * Reads a WeChat Pay callback: signature and freshness over the raw bytes, then the transaction
 * decrypted with the APIv3 key. Only a successful transaction for this merchant and app is a
 * payment; other genuine events are acknowledged. Never throws: anything untrusted is `rejected`.
 */
export function readWxpayCallback(
  stored: unknown,
  callback: GatewayCallback,
  nowSeconds: number,
): GatewayCallbackResult {
  let setup: ReturnType<typeof readKeys>;
  try {
    setup = readKeys(stored);
  } catch (error) {
    return { kind: 'rejected', reason: (error as Error).message };
  }
  const { config, keys } = setup;
  if (callback.method.toUpperCase() !== 'POST')
    return { kind: 'rejected', reason: `WeChat Pay notifies by POST, not ${callback.method}` };
  const problem = signatureProblem(callback.headers, callback.rawBody, keys.platform, nowSeconds);
  if (problem) return { kind: 'rejected', reason: problem };

  const envelope = notification.safeParse(parseJson(callback.rawBody.toString('utf8')));
  if (!envelope.success)
    return { kind: 'rejected', reason: `not a WeChat Pay notification (bad ${firstIssue(envelope.error)})` };
  if (envelope.data.event_type !== PAID_EVENT)
    return { kind: 'ignored', reason: `event_type ${envelope.data.event_type}` };

  let plain: string;
  try {
    plain = decryptResource(envelope.data.resource, config.mch_apiv3_key);
  } catch (error) {
    return { kind: 'rejected', reason: `resource does not decrypt (check mch_apiv3_key): ${(error as Error).message}` };
  }
  const paid = transaction.safeParse(parseJson(plain));
  if (!paid.success) return { kind: 'rejected', reason: `transaction without a valid ${firstIssue(paid.error)}` };
  const { mchid, appid, out_trade_no: tradeNo, transaction_id: gatewayNo, trade_state, amount } = paid.data;
  if (mchid !== config.mch_id) return { kind: 'rejected', reason: `mchid ${mchid} is not this merchant` };
  if (appid !== config.app_id) return { kind: 'rejected', reason: `appid ${appid} is not this gateway's app_id` };
  if (trade_state !== 'SUCCESS') return { kind: 'ignored', reason: `trade_state ${trade_state}` };
  if (!(PAYMENT_CURRENCIES as readonly string[]).includes(amount.currency)) {
    return { kind: 'rejected', reason: `currency ${amount.currency} is not one this server charges in` };
  }
  // `total` is the order amount WeChat Pay confirms as paid; `payer_total` is less only when a
  // WeChat Pay coupon paid part of it, which still settles the order in full.
  return { kind: 'paid', tradeNo, gatewayNo, paidCents: amount.total, currency: amount.currency as PaymentCurrency };
}
