import { formatTimestamp, type LogEvent } from '@one-hub/contracts';

/** A translation lookup in the `log` namespace (i18next's `t`, or a stand-in in tests). */
export type Translate = (key: string, values: Record<string, string | number>) => string;

/**
 * The sentence for a log row the server wrote about an account, in the reader's language. The row's
 * `content` stays One Hub's Chinese text; this words the same fact from the row's event, with
 * amounts in the reader's display unit (`formatQuota`).
 */
export function logEventText(event: LogEvent, t: Translate, formatQuota: (quota: number) => string): string {
  const key = (name: string) => `detail.events.${name}`;
  switch (event.event) {
    case 'signup_gift':
    case 'root_initial_quota':
    case 'invitee_gift':
    case 'inviter_reward':
    case 'redemption':
      return t(key(event.event), { amount: formatQuota(event.quota) });
    case 'admin_quota': {
      const text = t(key(event.quota < 0 ? 'admin_took' : 'admin_added'), {
        operator: event.operator_id,
        amount: formatQuota(Math.abs(event.quota)),
      });
      return event.remark ? t(key('remark'), { text, remark: event.remark }) : text;
    }
    case 'online_topup':
      return t(key('online_topup'), {
        amount: formatQuota(event.quota),
        paid: event.paid,
        currency: event.currency,
        tradeNo: event.trade_no,
      });
    case 'topup_not_credited':
      return t(key('topup_not_credited'), { tradeNo: event.trade_no, reason: event.reason });
    case 'payment_gateway':
      return t(key(`gateway_${event.change}`), {
        id: event.gateway_id,
        name: event.gateway_name,
        type: event.gateway_type,
        actor: event.actor,
        fields: event.fields.join(', '),
      });
    case 'plan_subscribed': {
      const values = { plan: event.plan_name, until: formatTimestamp(event.expires_at) };
      const text = t(key(`plan_${event.source}${event.renewed ? '_renewed' : ''}`), values);
      return event.trade_no
        ? t(key('plan_paid'), { text, paid: event.paid ?? '', currency: event.currency ?? '', tradeNo: event.trade_no })
        : text;
    }
    case 'plan_expired':
      return t(key(event.group ? 'plan_expired_group' : 'plan_expired'), {
        plan: event.plan_name,
        group: event.group ?? '',
      });
    case 'plan_ended':
      return t(key(event.group ? 'plan_ended_group' : 'plan_ended'), {
        plan: event.plan_name,
        operator: event.operator_id,
        group: event.group ?? '',
      });
    case 'task_refund':
      return t(key(event.kind === 'midjourney' ? 'midjourney_refund' : 'task_refund'), {
        taskId: event.task_id,
        amount: formatQuota(event.quota),
      });
  }
}
