import type { PaymentAction, PaymentCurrency, PaymentGatewayType } from '@one-hub/contracts';
import type { z } from 'zod';

/**
 * The one interface every payment gateway implements (DESIGN: payments/, one folder per gateway).
 * A gateway knows its vendor's wire format and signatures; it never touches the database, the
 * user's balance or Fastify. The order service decides what to charge and credits exactly once.
 */

/** One order as a gateway needs it. Money is in the currency's minor unit (cents or fen), never a float. */
export interface GatewayOrder {
  tradeNo: string;
  /** What the payer is charged, in minor units of `currency`. */
  amountCents: number;
  currency: PaymentCurrency;
  /** Shown to the payer by the vendor, e.g. "One Hub-Token充值:10". */
  subject: string;
  /** Where the vendor posts its callback: `<notify_domain or ServerAddress>/api/payment/notify/<uuid>`. */
  notifyUrl: string;
  /** The uuid of the gateway charging it (the `<uuid>` of `notifyUrl`); Stripe tags its Checkout Session with it. */
  gatewayUuid: string;
  /** Where the payer's browser returns after paying. */
  returnUrl: string;
  user: { id: number; username: string; email: string };
  clientIp: string;
}

/** How the browser pays (PaymentAction): open `url` (GET, or POST `params` as a form), or show `url` as a QR code. */
export type GatewayPayment =
  | { type: typeof PaymentAction.openUrl; url: string; method: 'GET' | 'POST'; params?: Record<string, string> }
  | { type: typeof PaymentAction.showQrCode; url: string };

/** The vendor's callback as it reached `ANY /api/payment/notify/:uuid`, body unparsed (signatures cover the bytes). */
export interface GatewayCallback {
  method: string;
  /** Decoded query parameters (the first value of each). */
  query: Record<string, string>;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  rawBody: Buffer;
}

/** Which gateway a callback reached: the `:uuid` of `/api/payment/notify/:uuid`. */
export interface GatewayCallbackContext {
  uuid: string;
}

/** What a verified callback says. `paid` is only returned for a genuine, signed, completed payment. */
export type GatewayCallbackResult =
  | {
      kind: 'paid';
      tradeNo: string;
      /** The vendor's own transaction number. */
      gatewayNo: string;
      /** What the vendor says was paid, in minor units, so the order service can compare it with the order. */
      paidCents: number;
      /** The currency the vendor reports; absent when its callback names none (Epay), then only the amount is compared. */
      currency?: PaymentCurrency;
    }
  /**
   * Genuine and signed: the vendor says the order's payment failed for good (Stripe's delayed bank
   * debit bounced). A pending order becomes `failed`; nothing is credited.
   */
  | { kind: 'failed'; tradeNo: string; gatewayNo: string; reason: string }
  /** Genuine and signed, but not a completed payment (another Stripe event, a WAIT_BUYER_PAY notice): acknowledged, nothing credited. */
  | { kind: 'ignored'; reason: string }
  /** Not to be trusted: bad or missing signature, undecryptable, malformed. Nothing credited. */
  | { kind: 'rejected'; reason: string };

/** The HTTP answer the vendor expects; `ok` after a handled callback, `fail` after a refused one. */
export interface GatewayAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** Where the vendors' servers are; production defaults, overridden for sandboxes and local simulators. */
export interface GatewayEndpoints {
  /** Alipay's gateway (`https://openapi.alipay.com/gateway.do`). */
  alipayGateway: string;
  /** WeChat Pay's API base (`https://api.mch.weixin.qq.com`). */
  wxpayApiBase: string;
  /** Stripe's API base (`https://api.stripe.com`). */
  stripeApiBase: string;
}

export interface PaymentGateway<Config extends Record<string, unknown> = Record<string, unknown>> {
  readonly type: PaymentGatewayType;
  /** Validates the admin's `config` JSON; messages name the field. */
  readonly configSchema: z.ZodType<Config>;
  /** Config fields that are write-only: stored, used, never returned in full. */
  readonly secretFields: readonly (keyof Config & string)[];
  /**
   * Runs when an administrator saves the gateway, before the row is committed; returns the config
   * to store (Stripe registers its webhook here and keeps the signing secret). A throw refuses the save.
   */
  prepare?(config: Config, context: { notifyUrl: string }): Promise<Config>;
  /** Starts a payment at the vendor and tells the browser how to pay. */
  pay(config: Config, order: GatewayOrder): Promise<GatewayPayment>;
  /**
   * Verifies a callback's signature and reads what it says. Never throws for bad input: returns
   * `rejected`. `context` names the gateway whose notify URL was called (Stripe sends every event of
   * the account to every endpoint, so it acknowledges, as `ignored`, sessions tagged for another one).
   */
  verify(config: Config, callback: GatewayCallback, context: GatewayCallbackContext): Promise<GatewayCallbackResult>;
  /** The answer the vendor's documentation asks for after a callback was handled (`ok`) or refused (`fail`). */
  answer(outcome: 'ok' | 'fail'): GatewayAnswer;
}
