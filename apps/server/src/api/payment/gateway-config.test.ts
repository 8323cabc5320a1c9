import { describe, expect, it } from 'vitest';
import { createEpayGateway } from '../../payments/epay/index.js';
import type { PaymentGateway } from '../../payments/gateway.js';
import { createSecretBox } from '../../platform/secret-box.js';
import { GatewayConfigs, maskSecret } from './gateway-config.js';

const visible = (masked: string) => masked.replaceAll('•', '');

describe('masking payment gateway secrets (issue 29 item 16)', () => {
  it('shows at most the last 4 characters of a secret, and none of one under 12', () => {
    expect(maskSecret('sk_live_abcdef123456')).toBe('••••3456');
    expect(maskSecret('epay-merchant-key-0123456789')).toBe('••••6789');
    expect(maskSecret('abcdefghijkl')).toBe('••••ijkl');
    for (const short of ['a', 'short', 'elevenchars']) expect(maskSecret(short)).toBe('••••••••');
    for (const length of [1, 11, 12, 13, 40, 2000]) {
      const secret = `${'x'.repeat(length - 1)}y`;
      expect(visible(maskSecret(secret)).length).toBeLessThanOrEqual(length < 12 ? 0 : 4);
    }
  });

  it('masks the secret fields of a stored config and nothing else', () => {
    const configs = new GatewayConfigs(createSecretBox('a-server-secret-for-tests-0123456789', 'payments'));
    const epay = createEpayGateway() as unknown as PaymentGateway;
    const config = {
      pay_domain: 'https://pay.example.com',
      partner_id: '1001',
      key: 'merchant-key-ABCDEFGH',
      pay_type: '',
    };
    const shown = JSON.parse(configs.masked(epay, configs.seal(epay, config)));
    expect(shown).toEqual({ ...config, key: '••••EFGH' });
    expect(JSON.parse(configs.masked(epay, configs.seal(epay, { ...config, key: 'tiny' }))).key).toBe('••••••••');
  });
});
