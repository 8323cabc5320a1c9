import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailCatcher, startMailCatcher } from '../../../test/api/account/mail-catcher.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';
import { lowBalanceEvent } from './low-balance.js';

describe('lowBalanceEvent', () => {
  it('calls for one mail where a charge crosses the threshold or empties the balance', () => {
    expect(lowBalanceEvent(500, 520, 480)).toBe('low');
    expect(lowBalanceEvent(500, 500, 499)).toBe('low');
    expect(lowBalanceEvent(500, 480, 460)).toBeUndefined(); // already below: mailed at the crossing
    expect(lowBalanceEvent(500, 900, 500)).toBeUndefined(); // not below yet
    expect(lowBalanceEvent(500, 300, 0)).toBe('exhausted');
    expect(lowBalanceEvent(500, 900, 0)).toBe('exhausted'); // both at once: the more urgent one
    expect(lowBalanceEvent(500, 0, 0)).toBeUndefined();
    expect(lowBalanceEvent(0, 900, 0)).toBeUndefined(); // a threshold of 0 turns reminders off
  });
});

// gpt-4o-mini is priced 1 / 2 in these tests and the mock reports 12 prompt + 7 completion tokens.
const COST = 12 * 1 + 7 * 2;

describe('the low-balance e-mail (QuotaRemindThreshold)', () => {
  let r: RelayTestContext;
  let smtp: MailCatcher;
  const email = 'relayuser@example.com';

  beforeAll(async () => {
    smtp = await startMailCatcher();
    r = await startRelayTest({ quota: 1000 });
    for (const [key, value] of Object.entries({
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: smtp.user,
      SMTPFrom: 'hub@example.com',
      SMTPToken: smtp.password,
      ServerAddress: 'https://hub.example.com/',
      SystemName: 'Test Hub',
      QuotaRemindThreshold: '950',
      // Reserve only the prompt's estimate, so a balance of 20 still lets a request through.
      PreConsumedQuota: '0',
    })) {
      await r.t.services.options.update(key, value);
    }
    await r.t.database.db.updateTable('users').set({ email }).where('id', '=', r.userId).execute();
  });
  afterAll(async () => {
    await r?.close();
    await smtp?.close();
  });

  const chat = () =>
    r.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
  /** The mail is sent after the answer: wait until it arrives (or give up and let the test fail). */
  const mailsAfter = async (count: number) => {
    for (let waited = 0; smtp.mails.length < count && waited < 100; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return smtp.mails;
  };

  it('mails the user once when a charge takes the balance below the threshold', async () => {
    await chat(); // 1000 → 974: still above 950
    await chat(); // 974 → 948: crosses
    await chat(); // 948 → 922: already below, no second mail
    expect(await storedQuota(r)).toBe(1000 - 3 * COST);
    const mails = await mailsAfter(1);
    // Give a wrongly sent second mail the time to arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual([email]);
    expect(mails[0]?.text).toContain('Subject: Test Hub: your balance is low');
    expect(mails[0]?.text).toContain(
      'your balance on Test Hub is $0.001896 (948 quota), below the reminder level of $0.001900 (950 quota)',
    );
    expect(mails[0]?.text).toContain('https://hub.example.com/panel/topup');
  });

  it('mails again when a charge empties the balance', async () => {
    // An administrator sets the balance to 20: the next answer costs more than that.
    await r.admin('POST', `/api/user/quota/${r.userId}`, { quota: 20 - (1000 - 3 * COST) });
    expect(await storedQuota(r)).toBe(20);
    await chat();
    expect(await storedQuota(r)).toBe(0);
    const mails = await mailsAfter(2);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.text).toContain('Subject: Test Hub: your balance has run out');
  });
});
