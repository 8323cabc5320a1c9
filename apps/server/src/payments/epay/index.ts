import { PaymentAction } from '@one-hub/contracts';
import { z } from 'zod';
import type { GatewayAnswer, GatewayCallbackResult, PaymentGateway } from '../gateway.js';
import { centsOf, centsText } from '../money.js';
import { epaySign, epaySignatureMatches } from './sign.js';

/** The pay types an Epay merchant may pin; empty lets the payer choose on Epay's cashier page. */
export const EPAY_PAY_TYPES = ['', 'alipay', 'wxpay', 'qqpay', 'bank', 'jdpay', 'paypal', 'usdt'] as const;

const epayConfig = z.object({
  pay_domain: z
    .string('pay_domain is required')
    .trim()
    .refine((value) => /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(value), {
      message: 'pay_domain must be the Epay site URL, such as https://pay.example.com',
    })
    .transform((value) => value.replace(/\/+$/, '')),
  partner_id: z.string('partner_id is required').trim().min(1, 'partner_id is required').max(64),
  key: z.string('key is required').trim().min(1, 'key is required').max(256),
  pay_type: z.enum(EPAY_PAY_TYPES, `pay_type must be one of: ${EPAY_PAY_TYPES.join(', ') || '(empty)'}`).default(''),
});
export type EpayConfig = z.infer<typeof epayConfig>;

const text = (body: string): GatewayAnswer => ({ status: 200, contentType: 'text/plain; charset=utf-8', body });

/**
 * Epay (易支付): the payer's browser posts a signed form to `<pay_domain>/submit.php`; Epay calls
 * the notify URL back with a signed query string and expects the body `success` (else it retries).
 * Epay's callback names no currency, so only the amount paid is compared with the order.
 */
export function createEpayGateway(): PaymentGateway<EpayConfig> {
  return {
    type: 'epay',
    configSchema: epayConfig as z.ZodType<EpayConfig>,
    secretFields: ['key'],

    async pay(config, order) {
      const params: Record<string, string> = {
        pid: config.partner_id,
        type: config.pay_type,
        out_trade_no: order.tradeNo,
        notify_url: order.notifyUrl,
        return_url: order.returnUrl,
        name: order.tradeNo,
        money: centsText(order.amountCents),
      };
      if (!params.type) delete params.type;
      params.sign = epaySign(params, config.key);
      params.sign_type = 'MD5';
      return { type: PaymentAction.openUrl, url: `${config.pay_domain}/submit.php`, method: 'POST', params };
    },

    async verify(config, callback): Promise<GatewayCallbackResult> {
      const query = callback.query;
      if (!query.sign) return { kind: 'rejected', reason: 'no sign parameter' };
      if (!epaySignatureMatches(query, config.key)) return { kind: 'rejected', reason: 'sign does not match' };
      if (query.pid !== undefined && query.pid !== config.partner_id) {
        return { kind: 'rejected', reason: `pid ${query.pid} is not this merchant` };
      }
      if (query.trade_status !== 'TRADE_SUCCESS') {
        return { kind: 'ignored', reason: `trade_status ${query.trade_status ?? '(none)'}` };
      }
      const tradeNo = query.out_trade_no ?? '';
      if (!tradeNo) return { kind: 'rejected', reason: 'no out_trade_no' };
      let paidCents: number;
      try {
        paidCents = centsOf(query.money ?? '');
      } catch {
        return { kind: 'rejected', reason: 'money is not a number' };
      }
      return { kind: 'paid', tradeNo, gatewayNo: query.trade_no ?? '', paidCents };
    },

    answer(outcome) {
      return text(outcome === 'ok' ? 'success' : 'fail');
    },
  };
}
