import { formatTimestamp, type LogEvent, logEventOf } from '@one-hub/contracts';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { resources } from '../../i18n/resources.js';
import { logEventText } from './logEventText.js';

const i18n = i18next.createInstance();
await i18n.init({
  resources,
  ns: ['log'],
  defaultNS: 'log',
  lng: 'en_US',
  showSupportNotice: false,
  interpolation: { escapeValue: false },
});

/** Amounts as the console shows them in currency mode, at 500,000 quota a dollar. */
const dollars = (quota: number) => `$${(quota / 500_000).toFixed(2)}`;

function say(event: LogEvent, language: string): string {
  const t = i18n.getFixedT(language, 'log');
  return logEventText(event, (key, values) => t(key, values), dollars);
}

describe('log rows worded from their event in the reader language', () => {
  it.each<[LogEvent, string]>([
    [{ event: 'signup_gift', quota: 500_000 }, 'Sign-up gift: $1.00'],
    [{ event: 'root_initial_quota', quota: 50_000_000 }, 'Starting balance of the first administrator: $100.00'],
    [{ event: 'invitee_gift', quota: 250_000 }, 'Gift for signing up with an invitation code: $0.50'],
    [{ event: 'inviter_reward', quota: 1_000_000 }, 'Reward for inviting a user: $2.00'],
    [{ event: 'admin_quota', quota: 1_500_000, operator_id: 1 }, 'An administrator (#1) added $3.00 to the balance'],
    [
      { event: 'admin_quota', quota: -500_000, operator_id: 7, remark: 'refund #12' },
      'An administrator (#7) took $1.00 from the balance · Note: refund #12',
    ],
    [{ event: 'redemption', quota: 5_000_000 }, 'Topped up $10.00 with a redemption code'],
    [
      { event: 'online_topup', quota: 5_000_000, paid: '72.50', currency: 'CNY', trade_no: 'T123' },
      'Online top-up of $10.00: paid 72.50 CNY, order T123',
    ],
    [
      { event: 'topup_not_credited', trade_no: 'T9', reason: 'the notice reached another gateway' },
      'Online top-up order T9 was not credited: the notice reached another gateway',
    ],
    [
      { event: 'task_refund', kind: 'midjourney', task_id: 'mj-1', quota: 1000 },
      'Midjourney drawing mj-1 failed: $0.00 refunded',
    ],
    [{ event: 'task_refund', kind: 'task', task_id: 'suno-1', quota: 500_000 }, 'Task suno-1 failed: $1.00 refunded'],
    [
      {
        event: 'payment_gateway',
        change: 'changed',
        gateway_id: 3,
        gateway_name: 'Epay',
        gateway_type: 'epay',
        fields: ['config.key', 'notify_domain'],
        actor: 'root',
      },
      'Payment gateway #3 Epay (epay): root changed config.key, notify_domain',
    ],
  ])('in English: %j', (event, sentence) => {
    expect(say(event, 'en_US')).toBe(sentence);
  });

  it('words plan rows: bought with what was paid, given, and ended (by an administrator too) with the group returned to', () => {
    const until = formatTimestamp(1_800_000_000);
    const bought: LogEvent = {
      ...{ event: 'plan_subscribed', plan_id: 2, plan_name: 'Pro', expires_at: 1_800_000_000, renewed: true },
      ...{ source: 'order', trade_no: 'T7', paid: '73.00', currency: 'CNY' },
    };
    expect(say(bought, 'en_US')).toBe(`Renewed the plan Pro, until ${until}: paid 73.00 CNY, order T7`);
    const given: LogEvent = { ...bought, renewed: false, source: 'grant', operator_id: 1, trade_no: undefined };
    expect(say(given, 'en_US')).toBe(`An administrator gave the plan Pro, until ${until}`);
    const ended: LogEvent = { event: 'plan_expired', plan_id: 2, plan_name: 'Pro', group: 'default' };
    expect(say(ended, 'en_US')).toBe('The plan Pro ended; back in the group default');
    expect(say({ event: 'plan_expired', plan_id: 2, plan_name: 'Pro' }, 'zh_CN')).toBe('套餐 Pro 已到期');
    const endedNow: LogEvent = { event: 'plan_ended', plan_id: 2, plan_name: 'Pro', operator_id: 1, group: 'default' };
    expect(say(endedNow, 'en_US')).toBe('An administrator (#1) ended the plan Pro; back in the group default');
    expect(say({ ...endedNow, group: undefined }, 'zh_CN')).toBe('管理员（#1）提前结束了套餐 Pro');
  });

  it('says the same fact in Japanese and in traditional Chinese', () => {
    const event: LogEvent = { event: 'redemption', quota: 5_000_000 };
    expect(say(event, 'ja_JP')).toBe('引き換えコードで $10.00 をチャージしました');
    expect(say(event, 'zh_HK')).toBe('透過兌換碼充值 $10.00');
  });

  it('reads the event only from well-formed metadata, so other rows keep their stored text', () => {
    expect(logEventOf({ event: 'redemption', quota: 10 })).toEqual({ event: 'redemption', quota: 10 });
    expect(logEventOf({})).toBeUndefined();
    expect(logEventOf({ group_ratio: 1, input_ratio: 2 })).toBeUndefined();
    expect(logEventOf({ event: 'redemption' })).toBeUndefined();
    expect(logEventOf({ event: 'something_new', quota: 1 })).toBeUndefined();
    expect(logEventOf(null)).toBeUndefined();
  });
});
