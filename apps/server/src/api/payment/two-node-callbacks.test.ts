import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type EpaySimulator, startEpaySimulator } from '../../../test/payments/epay/simulator.js';
import { type PaymentTestApp, startPaymentApp } from '../../../test/payments/support.js';

const QUOTA_PER_UNIT = 500_000;
const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Two nodes on one database and one Redis, as a multi-node deployment runs: the vendor's repeated
 * callbacks for one order reach both nodes at the same moment, and the order is credited once.
 */
describe.skipIf(!redisUrl)('payment callbacks on two nodes', () => {
  describe.each(availableDialects)('sharing %s and Redis', (dialect) => {
    let first: PaymentTestApp;
    let second: PaymentTestApp;
    let epay: EpaySimulator;
    let gateway: { uuid: string };

    beforeAll(async () => {
      epay = await startEpaySimulator();
      const env = { REDIS_CONN_STRING: String(redisUrl) };
      first = await startPaymentApp(dialect, env, { cache: 'configured' });
      second = await startPaymentApp(dialect, env, { cache: 'configured', database: first.testDatabase });
      gateway = await first.createGateway({
        type: 'epay',
        name: 'Epay',
        currency: 'CNY',
        config: JSON.stringify({ pay_domain: epay.url, partner_id: epay.partnerId, key: epay.key, pay_type: 'alipay' }),
      });
    });
    afterAll(async () => {
      // The second node is on the first one's database, which the first drops when it closes.
      await second?.close();
      await first?.close();
      await epay?.close();
    });

    it('credits once when 12 callbacks for one order land on both nodes at once', async () => {
      const user = await first.createUser(`twonode${dialect.slice(0, 3)}`);
      const created = await first.call('POST', '/api/user/order', user.cookie, { uuid: gateway.uuid, amount: 3 });
      expect(created.statusCode, created.body).toBe(200);
      const { trade_no: tradeNo, data } = created.json().data;
      const submit = await fetch(data.url, { method: 'POST', body: new URLSearchParams(data.params) });
      expect(submit.status).toBe(200);

      const nodes = [first, second];
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) => {
          const node = nodes[index % 2] as PaymentTestApp;
          return epay.notify(tradeNo, { notifyUrl: `${node.base}/api/payment/notify/${gateway.uuid}` });
        }),
      );
      expect(answers.every((answer) => answer.status === 200 && answer.body === 'success')).toBe(true);

      expect(await first.topUpLogs(user.id)).toHaveLength(1);
      expect((await first.order(tradeNo)).status).toBe('success');
      // Both nodes read the same balance (kept in Redis), credited once.
      for (const node of nodes) {
        const self = await node.call('GET', '/api/user/self', user.cookie);
        expect(self.statusCode, self.body).toBe(200);
        expect(self.json().data.quota).toBe(3 * QUOTA_PER_UNIT);
      }
    });
  });
});
