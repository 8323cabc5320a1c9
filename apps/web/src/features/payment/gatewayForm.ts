import {
  PAYMENT_GATEWAY_TYPES,
  type PaymentCurrency,
  type PaymentGatewayBody,
  type PaymentGatewayType,
  type PaymentGatewayView,
  paymentGatewayFormBody,
} from '@one-hub/contracts';
import type { FormCheck } from '../../components/form/checkedForm.js';
import { placeIssues } from '../../components/form/placeIssues.js';

/**
 * The gateway dialog's model, free of React: which settings each gateway type has (reference
 * §4.10's `config` fields), how the stored `config` JSON fills the form and how the form becomes
 * the request body. Secret settings come back from the server masked; an untouched mask is sent
 * back as it came, which the server reads as "keep the stored value", so a secret is only ever
 * sent when the administrator typed a new one.
 */

export interface ConfigField {
  name: string;
  /** Write-only on the server: shown masked, typed into a password field. */
  secret?: boolean;
  /** PEM keys and certificates span lines. */
  multiline?: boolean;
  /** A fixed choice; '' is a valid value where listed. */
  options?: readonly string[];
  /** Always, or only for some values of the other settings (decided by the function). */
  required?: boolean | ((config: Record<string, string>) => boolean);
}

/**
 * A platform certificate (`-----BEGIN CERTIFICATE-----`) carries its own serial number, which the
 * server takes as `wechatpay_public_key_id`; only a WeChat Pay public key needs its PUB_KEY_ID_….
 */
export const isCertificate = (text: string | undefined) => (text ?? '').includes('-----BEGIN CERTIFICATE-----');

/** Whether the field must be filled in, given the type's other settings as typed. */
export function isRequired(field: ConfigField, config: Record<string, string>): boolean {
  return typeof field.required === 'function' ? field.required(config) : (field.required ?? false);
}

export const GATEWAY_CONFIG_FIELDS: Record<PaymentGatewayType, readonly ConfigField[]> = {
  epay: [
    { name: 'pay_domain', required: true },
    { name: 'partner_id', required: true },
    { name: 'key', secret: true, required: true },
    { name: 'pay_type', options: ['', 'alipay', 'wxpay', 'qqpay', 'bank', 'jdpay', 'paypal', 'usdt'] },
  ],
  alipay: [
    { name: 'app_id', required: true },
    { name: 'private_key', secret: true, multiline: true, required: true },
    { name: 'public_key', multiline: true, required: true },
    { name: 'pay_type', options: ['facepay', 'pagepay', 'wappay'] },
  ],
  wxpay: [
    { name: 'app_id', required: true },
    { name: 'mch_id', required: true },
    { name: 'mch_certificate_serial_number', required: true },
    { name: 'mch_apiv3_key', secret: true, required: true },
    { name: 'mch_private_key', secret: true, multiline: true, required: true },
    { name: 'wechatpay_public_key', multiline: true, required: true },
    { name: 'wechatpay_public_key_id', required: (config) => !isCertificate(config.wechatpay_public_key) },
    { name: 'pay_type', options: ['Native'] },
  ],
  stripe: [{ name: 'secret_key', secret: true, required: true }],
};

/** The dialog's fields as the inputs hold them. */
export interface GatewayFormValues {
  type: PaymentGatewayType;
  name: string;
  icon: string;
  notify_domain: string;
  fixed_fee: string;
  /** In percent as typed (5 = 5 %); the API takes a fraction. */
  percent_fee: string;
  currency: PaymentCurrency;
  sort: string;
  enable: boolean;
  config: Record<string, string>;
}

export type GatewayFormField = Exclude<keyof GatewayFormValues, 'config' | 'enable'> | `config.${string}`;
export type GatewayFormErrors = Partial<Record<GatewayFormField, string>>;

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** The stored `config` text as strings per field; anything unreadable counts as empty. */
export function parseConfig(text: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, typeof field === 'string' ? field : String(field ?? '')]),
    );
  } catch {
    return {};
  }
}

/** Each field's first choice (or empty), so a select never starts outside its options. */
export function defaultConfig(type: PaymentGatewayType): Record<string, string> {
  return Object.fromEntries(GATEWAY_CONFIG_FIELDS[type].map((field) => [field.name, field.options?.[0] ?? '']));
}

export function emptyGatewayForm(type: PaymentGatewayType = PAYMENT_GATEWAY_TYPES[0]): GatewayFormValues {
  return {
    type,
    name: '',
    icon: '',
    notify_domain: '',
    fixed_fee: '0',
    percent_fee: '0',
    currency: type === 'stripe' ? 'USD' : 'CNY',
    sort: '1',
    enable: true,
    config: defaultConfig(type),
  };
}

/** 0.05 → "5": percent reads better in a form than a fraction (the reference's admins typed fractions). */
const fractionToPercent = (fraction: number) => String(Number((fraction * 100).toFixed(4)));

export function gatewayToForm(gateway: PaymentGatewayView): GatewayFormValues {
  return {
    type: gateway.type,
    name: gateway.name,
    icon: gateway.icon,
    notify_domain: gateway.notify_domain,
    fixed_fee: String(gateway.fixed_fee),
    percent_fee: fractionToPercent(gateway.percent_fee),
    currency: gateway.currency,
    sort: String(gateway.sort),
    enable: gateway.enable,
    config: { ...defaultConfig(gateway.type), ...parseConfig(gateway.config) },
  };
}

function decimal(text: string): number {
  const trimmed = text.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * The `config` JSON text to send: the settings of the chosen type, plus whatever the server added
 * on its own for that type (Stripe's webhook secret, still masked) so saving never loses it.
 */
export function buildConfig(values: GatewayFormValues, stored: Record<string, string>): string {
  const fields = GATEWAY_CONFIG_FIELDS[values.type];
  const config: Record<string, string> = { ...stored };
  for (const field of fields) config[field.name] = (values.config[field.name] ?? '').trim();
  return JSON.stringify(config);
}

function issueField(path: ReadonlyArray<PropertyKey>): GatewayFormField | null {
  const [first] = path;
  const known = ['type', 'name', 'icon', 'notify_domain', 'fixed_fee', 'percent_fee', 'currency', 'sort'];
  return typeof first === 'string' && known.includes(first) ? (first as GatewayFormField) : null;
}

/**
 * Checks the form with the server's schema and the type's required settings; messages are
 * translated per field. `stored` is the config the dialog opened with, when the type is still the
 * stored gateway's ({} when creating or after switching type: another type's settings mean nothing).
 */
export function validateGatewayForm(
  values: GatewayFormValues,
  stored: Record<string, string>,
  t: Translate,
): FormCheck<PaymentGatewayBody, GatewayFormField> {
  const percent = decimal(values.percent_fee);
  const sort = values.sort.trim() === '' ? Number.NaN : Number(values.sort.trim());
  const parsed = paymentGatewayFormBody.safeParse({
    type: values.type,
    name: values.name,
    icon: values.icon,
    notify_domain: values.notify_domain,
    fixed_fee: decimal(values.fixed_fee),
    percent_fee: Number.isNaN(percent) ? percent : Number((percent / 100).toFixed(6)),
    currency: values.currency,
    config: buildConfig(values, stored),
    sort,
    enable: values.enable,
  });
  const errors: GatewayFormErrors = {};
  const { unplaced } = placeIssues(
    parsed.error?.issues ?? [],
    issueField,
    (field) => t(`payment:form.errors.${field}`),
    errors,
  );
  for (const field of GATEWAY_CONFIG_FIELDS[values.type]) {
    if (isRequired(field, values.config) && !(values.config[field.name] ?? '').trim()) {
      errors[`config.${field.name}`] = t('payment:form.errors.required');
    }
  }
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, errors, unplaced };
}
