import type { OptionReader } from '../../domain/options.js';
import type { Logger } from '../../platform/logger.js';
import type { Mailer } from '../../platform/mail.js';

/**
 * The low-balance e-mail of the QuotaRemindThreshold option. A charge that takes a user's balance
 * from the threshold or above to below it sends "your balance is low"; one that takes it from above
 * zero to zero sends "your balance has run out". Each is sent once per crossing: the next charge
 * starts below the line. A threshold of 0 turns both off. The mail goes out after the answer, off
 * the request path; a failure to send is logged, never the request's concern.
 */
export type LowBalanceReminder = (userId: number, before: number, after: number) => void;

export interface LowBalanceDeps {
  options: Pick<OptionReader, 'get' | 'getNumber'>;
  findUser(userId: number): Promise<{ username: string; email: string } | undefined>;
  mailer: Mailer;
  logger: Pick<Logger, 'warn'>;
}

export type LowBalanceEvent = 'low' | 'exhausted';

/** Which mail, if any, a charge from `before` to `after` calls for under `threshold`. */
export function lowBalanceEvent(threshold: number, before: number, after: number): LowBalanceEvent | undefined {
  if (threshold <= 0 || after >= before) return undefined;
  if (before > 0 && after <= 0) return 'exhausted';
  if (before >= threshold && after < threshold) return 'low';
  return undefined;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

export function createLowBalanceReminder(deps: LowBalanceDeps): LowBalanceReminder {
  const send = async (userId: number, event: LowBalanceEvent, after: number, threshold: number) => {
    if (!deps.mailer.isConfigured()) return;
    const user = await deps.findUser(userId);
    if (!user?.email) return;
    const site = deps.options.get('SystemName');
    const perUnit = deps.options.getNumber('QuotaPerUnit') || 1;
    const money = (quota: number) => {
      const dollars = Math.max(0, quota) / perUnit;
      return `$${dollars.toFixed(dollars >= 1 ? 2 : 6)} (${Math.max(0, quota)} quota)`;
    };
    const base = deps.options.get('ServerAddress').trim().replace(/\/+$/, '');
    const topUp = base ? ` Top up at ${base}/panel/topup to keep your API keys working.` : '';
    const state =
      event === 'low'
        ? `is ${money(after)}, below the reminder level of ${money(threshold)}`
        : 'has run out: your API keys are refused until you top up';
    const text = `Hello ${user.username}, your balance on ${site} ${state}.${topUp}`;
    await deps.mailer.send({
      to: user.email,
      subject: `${site}: ${event === 'low' ? 'your balance is low' : 'your balance has run out'}`,
      text,
      html: `<p>${escapeHtml(text)}</p>`,
    });
  };
  return (userId, before, after) => {
    const threshold = deps.options.getNumber('QuotaRemindThreshold');
    const event = lowBalanceEvent(threshold, before, after);
    if (!event) return;
    send(userId, event, after, threshold).catch((error: unknown) => {
      deps.logger.warn({ err: error, userId }, 'the low-balance e-mail could not be sent');
    });
  };
}
