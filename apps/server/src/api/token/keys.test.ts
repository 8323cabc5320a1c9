import { isIP } from 'node:net';
import { clientKey, defaultTokenSetting, ipVersion, isIpOrCidr, maskKey } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { generateTokenKey, hashTokenKey, tokenKeyBody } from '../../domain/token-keys.js';
import { sha256Hex } from '../../platform/crypto.js';
import { readTokenSetting } from './setting.js';

describe('token keys', () => {
  it('generates distinct keys of 48 letters and digits, without the sk- clients add', () => {
    const keys = new Set(Array.from({ length: 50 }, generateTokenKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('hashes the body without the prefix; masks keep the prefix they were given and only the ends', () => {
    const body = generateTokenKey();
    expect(tokenKeyBody(clientKey(body))).toBe(body);
    expect(hashTokenKey(body)).toBe(sha256Hex(body));
    expect(hashTokenKey(body)).not.toBe(sha256Hex(clientKey(body)));
    expect(maskKey(body)).toBe(`${body.slice(0, 4)}…${body.slice(-4)}`);
    expect(maskKey(clientKey(body))).toBe(`sk-${body.slice(0, 4)}…${body.slice(-4)}`);
    expect(maskKey(maskKey(body))).toBe(maskKey(body));
    expect(maskKey('abc')).toBe('…');
    expect(clientKey(clientKey(body))).toBe(`sk-${body}`);
  });
});

describe('IP whitelist entries', () => {
  it('recognise addresses exactly as node:net does (zone ids aside)', () => {
    const samples = [
      '1.2.3.4',
      '0.0.0.0',
      '255.255.255.255',
      '256.1.1.1',
      '01.2.3.4',
      '1.2.3',
      '::',
      '::1',
      '1::',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7::',
      '1::2:3:4:5:6:7:8',
      '::ffff:1.2.3.4',
      '1:2:3:4:5:6:1.2.3.4',
      '1:2:3:4:5:6:7:1.2.3.4',
      '1.2.3.4::',
      ':::1',
      '1::2::3',
      '12345::',
      'g::',
      ':1',
      '1:',
      '',
      'localhost',
    ];
    for (const sample of samples) expect(ipVersion(sample), sample).toBe(isIP(sample));
    expect(ipVersion('fe80::1%eth0')).toBe(0);
  });

  it('accept CIDR ranges with a prefix that fits the address family', () => {
    expect(['10.0.0.0/8', '1.2.3.4/32', '0.0.0.0/0', '2001:db8::/32', '::/128'].every(isIpOrCidr)).toBe(true);
    expect(['10.0.0.0/33', '::/129', '1.2.3.4/', '1.2.3.4/08', '1.2.3.4/8/8', 'x/8'].some(isIpOrCidr)).toBe(false);
  });
});

describe('stored token settings', () => {
  it('fill in defaults and survive unreadable JSON', () => {
    expect(readTokenSetting('')).toEqual(defaultTokenSetting());
    expect(readTokenSetting('null')).toEqual(defaultTokenSetting());
    expect(readTokenSetting('{"heartbeat":{"enabled":true,"timeout_seconds":45}}').heartbeat).toEqual({
      enabled: true,
      timeout_seconds: 45,
    });
  });

  it('keep what is readable from a setting that fails validation, and never open the IP whitelist', () => {
    const stored = JSON.stringify({
      heartbeat: { enabled: true, timeout_seconds: 5 },
      limits: { limits_ip_setting: { enabled: true, whitelist: ['bad-entry', 7] }, rpm: 'many', concurrency: 3 },
    });
    const setting = readTokenSetting(stored);
    expect(setting.heartbeat).toEqual({ enabled: true, timeout_seconds: 30 });
    expect(setting.limits.limits_ip_setting).toEqual({ enabled: true, whitelist: ['bad-entry'] });
    expect(setting.limits).toMatchObject({ rpm: 0, concurrency: 3 });
  });
});
