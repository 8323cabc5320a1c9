import { describe, expect, it } from 'vitest';
import { rawMembers, readAnswer } from '../../../src/payments/alipay/response.js';
import { answerBody, rsaPair } from './vendor.js';

const alipay = rsaPair();

describe("cutting Alipay's signed member out of the answer", () => {
  it('keeps the bytes as sent: spacing, escapes, braces and quotes inside strings, Chinese text', () => {
    const member = '{ "code" : "40004", "sub_msg":"订单 \\"{已}\\" 关闭 ]}", "n":[1, {"a":null}], "u":"\\u4e2d\\/" }';
    const body = Buffer.from(` {"alipay_trade_precreate_response" : ${member} ,\n "sign":"abc=" }`, 'utf8');
    const members = rawMembers(body);
    expect(members.get('alipay_trade_precreate_response')?.toString('utf8')).toBe(member);
    expect(members.get('sign')?.toString('utf8')).toBe('"abc="');
  });

  it('refuses an answer that names the same member twice', () => {
    expect(() => rawMembers(Buffer.from('{"a":{"x":1},"a":{"x":2}}'))).toThrow('the answer names a twice');
  });

  it('verifies a signature over the member as sent and finds a forgery', () => {
    const body = answerBody(
      'alipay.trade.precreate',
      { code: '10000', qr_code: 'https://qr.alipay.com/x' },
      alipay.privateKey,
    );
    expect(body).toContain('https:\\/\\/qr.alipay.com');
    const answer = readAnswer(Buffer.from(body), 'alipay.trade.precreate', alipay.publicKey);
    expect(answer).toEqual({ fields: { code: '10000', qr_code: 'https://qr.alipay.com/x' }, signature: 'signed' });
    const forged = readAnswer(Buffer.from(body.replace('x"', 'y"')), 'alipay.trade.precreate', alipay.publicKey);
    expect(forged.signature).toBe('forged');
  });

  it('reads error_response, and refuses what is not an answer', () => {
    const error = readAnswer(
      Buffer.from('{"error_response":{"code":"40002"}}'),
      'alipay.trade.precreate',
      alipay.publicKey,
    );
    expect(error).toEqual({ fields: { code: '40002' }, signature: 'unsigned' });
    expect(() => readAnswer(Buffer.from('<html>'), 'alipay.trade.precreate', alipay.publicKey)).toThrow('not JSON');
    expect(() => readAnswer(Buffer.from('[1]'), 'alipay.trade.precreate', alipay.publicKey)).toThrow('no object');
    expect(() => readAnswer(Buffer.from('{"x":1}'), 'alipay.trade.precreate', alipay.publicKey)).toThrow(
      "Alipay's answer has no alipay_trade_precreate_response",
    );
  });
});
