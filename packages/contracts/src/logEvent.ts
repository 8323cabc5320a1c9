import { z } from 'zod';

/**
 * What a log row the server writes for an account (a gift, a top-up, a refund…) records in
 * structured form, beside its One Hub text in `content`. It is stored in the row's `metadata`
 * (`{"event": "redemption", "quota": 500000}`), so the console can say it in the reader's
 * language while `content` stays what One Hub's consoles and scripts read. Amounts are quota.
 */
const quota = z.number().int();
const text = z.string().max(1000);

export const logEventSchema = z.discriminatedUnion('event', [
  /** A new account's registration gift (`QuotaForNewUser`). */
  z.object({ event: z.literal('signup_gift'), quota }),
  /** The first administrator's starting balance. */
  z.object({ event: z.literal('root_initial_quota'), quota }),
  /** The gift for registering with an invitation code (`QuotaForInvitee`). */
  z.object({ event: z.literal('invitee_gift'), quota }),
  /** The inviter's reward for an invitee (`QuotaForInviter`). */
  z.object({ event: z.literal('inviter_reward'), quota }),
  /** An administrator added to or took from the balance; `operator_id` is who. */
  z.object({ event: z.literal('admin_quota'), quota, operator_id: z.number().int(), remark: text.optional() }),
  /** A redemption code was redeemed. */
  z.object({ event: z.literal('redemption'), quota }),
  /** A paid order was credited: `paid` is the amount paid in `currency` ("10.00"). */
  z.object({ event: z.literal('online_topup'), quota, paid: text, currency: text, trade_no: text }),
  /** A payment notice for an order was refused or failed; nothing was credited. */
  z.object({ event: z.literal('topup_not_credited'), trade_no: text, reason: text }),
  /**
   * A subscription plan was activated or renewed until `expires_at` (Unix seconds): bought
   * (`source` order, with what was paid) or given by an administrator (`grant`, `operator_id`).
   */
  z.object({
    event: z.literal('plan_subscribed'),
    plan_id: z.number().int(),
    plan_name: text,
    expires_at: z.number().int(),
    renewed: z.boolean(),
    source: z.enum(['order', 'grant']),
    trade_no: text.optional(),
    paid: text.optional(),
    currency: text.optional(),
    operator_id: z.number().int().optional(),
  }),
  /** A subscription plan ran out; `group` is the group the user went back to, when they were moved. */
  z.object({ event: z.literal('plan_expired'), plan_id: z.number().int(), plan_name: text, group: text.optional() }),
  /** An administrator (`operator_id`) ended a subscription before its end; `group` as for `plan_expired`. */
  z.object({
    event: z.literal('plan_ended'),
    plan_id: z.number().int(),
    plan_name: text,
    operator_id: z.number().int(),
    group: text.optional(),
  }),
  /** A failed asynchronous task (Midjourney drawing or another task) gave its charge back. */
  z.object({ event: z.literal('task_refund'), kind: z.enum(['midjourney', 'task']), task_id: text, quota }),
  /** Root's audit row: a payment gateway was created, had vendor settings changed, or was deleted. */
  z.object({
    event: z.literal('payment_gateway'),
    change: z.enum(['created', 'changed', 'deleted']),
    gateway_id: z.number().int(),
    gateway_name: text,
    gateway_type: text,
    /** The settings named (never their values): `config.key`, `notify_domain`… */
    fields: z.array(text).max(100),
    actor: text,
  }),
]);

export type LogEvent = z.infer<typeof logEventSchema>;
export type LogEventName = LogEvent['event'];

/** The event a log row's metadata records, or undefined (a consume row, an older or foreign row). */
export function logEventOf(metadata: unknown): LogEvent | undefined {
  const parsed = logEventSchema.safeParse(metadata);
  return parsed.success ? parsed.data : undefined;
}
