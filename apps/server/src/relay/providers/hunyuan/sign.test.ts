import { describe, expect, it } from 'vitest';
import { tc3Authorization, tc3Date, tc3Signature } from './sign.js';

/**
 * Tencent's worked example of signature v3 (its "Signature v3" page, CVM DescribeInstances):
 * fixed SecretId/SecretKey, timestamp 1551113065, the JSON body below, and each intermediate
 * value and the final signature the documentation publishes.
 */
const EXAMPLE = {
  secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
  secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
  service: 'cvm',
  headers: { 'content-type': 'application/json; charset=utf-8', host: 'cvm.tencentcloudapi.com' },
  payload: String.raw`{"Limit": 1, "Filters": [{"Values": ["\u672a\u547d\u540d"], "Name": "instance-name"}]}`,
  timestamp: 1551113065,
};

describe('TC3-HMAC-SHA256', () => {
  it("reproduces Tencent's documented example step by step", () => {
    const signed = tc3Signature(EXAMPLE);
    expect(signed.canonicalRequest).toBe(
      [
        'POST',
        '/',
        '',
        'content-type:application/json; charset=utf-8',
        'host:cvm.tencentcloudapi.com',
        '',
        'content-type;host',
        '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
      ].join('\n'),
    );
    expect(signed.hashedCanonicalRequest).toBe('5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031');
    expect(signed.stringToSign).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
    expect(signed.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
    expect(tc3Authorization(EXAMPLE)).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });

  it('takes the date in UTC (00:44 in UTC+8 is still the day before)', () => {
    expect(tc3Date(1551113065)).toBe('2019-02-25');
  });

  it('sorts signed headers by lower-cased name, whatever order and case they come in', () => {
    const reordered = {
      ...EXAMPLE,
      headers: { Host: 'cvm.tencentcloudapi.com', 'Content-Type': 'application/json; charset=utf-8' },
    };
    expect(tc3Signature(reordered).signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
    const withAction = tc3Signature({
      ...EXAMPLE,
      headers: { ...EXAMPLE.headers, 'X-TC-Action': 'DescribeInstances' },
    });
    expect(withAction.signedHeaders).toBe('content-type;host;x-tc-action');
    expect(withAction.canonicalRequest).toContain('\nx-tc-action:describeinstances\n');
    expect(withAction.signature).not.toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
  });
});
