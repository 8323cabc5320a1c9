import type { KeyObject } from 'node:crypto';
import { beijingSkewSeconds, requestSignatureValid } from './vendor.js';

/**
 * Alipay's checks of an incoming API call, in the order it reports them: the common parameters,
 * the signature, then the business fields of `biz_content` for the method called.
 */

export const PRODUCT_CODES: Record<string, string | undefined> = {
  'alipay.trade.precreate': undefined,
  'alipay.trade.page.pay': 'FAST_INSTANT_TRADE_PAY',
  'alipay.trade.wap.pay': 'QUICK_WAP_WAY',
};

export interface Business {
  out_trade_no: string;
  total_amount: string;
  subject: string;
  product_code?: string;
  timeout_express?: string;
  quit_url?: string;
}

/** Alipay's refusal: `code` 40002 (invalid arguments, unsigned) or 40004 (business failure, signed). */
export interface Refusal {
  code: '40002' | '40004';
  subCode: string;
  subMsg: string;
}

const invalid = (subCode: string, subMsg: string): Refusal => ({ code: '40002', subCode, subMsg });
const business = (subCode: string, subMsg: string): Refusal => ({ code: '40004', subCode, subMsg });

/** Requests older than this are refused, as Alipay refuses a stale `timestamp`. */
const TIMESTAMP_TOLERANCE_SECONDS = 30 * 60;

export function commonProblem(
  params: Record<string, string>,
  appId: string,
  merchantPublicKey: KeyObject,
): Refusal | undefined {
  if (params.app_id !== appId) return invalid('isv.invalid-app-id', '无效的AppID参数');
  if (!params.method || !(params.method in PRODUCT_CODES)) return invalid('isv.invalid-method', '不存在的方法名');
  if (params.charset !== 'utf-8') return invalid('isv.invalid-charset', '字符集错误');
  if (params.sign_type !== 'RSA2') return invalid('isv.invalid-signature-type', '无效的签名类型');
  if (params.version !== '1.0') return invalid('isv.invalid-version', '版本号错误');
  if (params.format !== undefined && params.format.toUpperCase() !== 'JSON')
    return invalid('isv.invalid-format', '无效的数据格式');
  const skew = beijingSkewSeconds(params.timestamp ?? '');
  if (!(skew <= TIMESTAMP_TOLERANCE_SECONDS)) return invalid('isv.invalid-timestamp', '非法的时间戳参数');
  if (!requestSignatureValid(params, merchantPublicKey)) return invalid('isv.invalid-signature', '验签出错');
  if (!/^https?:\/\/[^?#\s]+$/.test(params.notify_url ?? ''))
    return invalid('isv.invalid-notify-url', 'notify_url 不合法');
  return undefined;
}

/** The business fields, or Alipay's refusal of them. */
export function businessProblem(params: Record<string, string>): Refusal | Business {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(params.biz_content ?? '') as Record<string, unknown>;
  } catch {
    return invalid('isv.invalid-biz-content', 'biz_content 不是 JSON');
  }
  const fields = parsed as unknown as Business;
  if (typeof fields.out_trade_no !== 'string' || !/^[A-Za-z0-9_]{1,64}$/.test(fields.out_trade_no)) {
    return business('ACQ.INVALID_PARAMETER', 'out_trade_no 必须是 64 个字符以内的字母、数字、下划线');
  }
  if (typeof fields.total_amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(fields.total_amount)) {
    return business('ACQ.INVALID_PARAMETER', 'total_amount 必须是精确到分的金额');
  }
  const amount = Number(fields.total_amount);
  if (amount < 0.01 || amount > 100_000_000) return business('ACQ.TOTAL_FEE_EXCEED', '订单金额超过限额');
  if (typeof fields.subject !== 'string' || !fields.subject || [...fields.subject].length > 256) {
    return business('ACQ.INVALID_PARAMETER', 'subject 长度 1 到 256');
  }
  if (fields.product_code !== PRODUCT_CODES[params.method ?? ''])
    return business('ACQ.INVALID_PRODUCT_CODE', '产品码不合法');
  if (fields.timeout_express !== undefined && !/^\d+[mhd]$/.test(fields.timeout_express)) {
    return business('ACQ.INVALID_PARAMETER', 'timeout_express 格式错误');
  }
  return fields;
}
