import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { sentUntilAnswered } from './redis-resend.js';

describe('sentUntilAnswered', () => {
  it('sends again after a lost reply and answers the first reply that comes', async () => {
    let sent = 0;
    const answer = await sentUntilAnswered(async () => {
      sent++;
      if (sent < 3) throw new Error('Connection is closed.');
      return 'OK';
    }, [0, 0, 0]);
    expect([answer, sent]).toEqual(['OK', 3]);
  });

  it('gives up after its last pause, with the last error', async () => {
    let sent = 0;
    const failing = sentUntilAnswered(async () => {
      sent++;
      throw new Error(`lost ${sent}`);
    }, [0, 0]);
    await expect(failing).rejects.toThrow('lost 3');
  });

  it('does not repeat an error Redis itself replied', async () => {
    let sent = 0;
    const failing = sentUntilAnswered(async () => {
      sent++;
      throw new ReplyError('ERR user_script:1: bad argument');
    }, [0, 0]);
    await expect(failing).rejects.toBeInstanceOf(ReplyError);
    expect(sent).toBe(1);
  });
});
