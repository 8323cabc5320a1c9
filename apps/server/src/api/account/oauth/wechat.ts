import { isRecord } from '@one-hub/contracts';
import { AppError } from '../../../platform/errors.js';
import type { OptionService } from '../../option/service.js';
import type { ExternalIdentity } from './external-accounts.js';
import { callJson, textField } from './upstream.js';

/**
 * WeChat sign-in through a separate wechat-server: the user reads a code from the official
 * account, and the server tells us whose code it is.
 */
export class WeChatSignIn {
  constructor(private readonly options: OptionService) {}

  async identify(code: string): Promise<ExternalIdentity> {
    if (!this.options.getBoolean('WeChatAuthEnabled')) {
      throw AppError.forbidden('sign-in with WeChat is not enabled on this site');
    }
    const server = this.options.get('WeChatServerAddress').trim().replace(/\/+$/, '');
    if (!server) throw new AppError('unavailable', 'WeChat sign-in is not set up: WeChatServerAddress is empty');
    const answer = await callJson(
      `${server}/api/wechat/user?code=${encodeURIComponent(code)}`,
      { method: 'GET', headers: { authorization: this.options.get('WeChatServerToken') } },
      'the WeChat server',
    );
    const body = isRecord(answer.body) ? answer.body : {};
    const openId = typeof body.data === 'string' ? body.data.trim() : '';
    if (body.success !== true || !openId) {
      throw AppError.badRequest(`the WeChat code was not accepted: ${textField(body, 'message') || 'unknown code'}`);
    }
    return {
      provider: 'wechat',
      binding: { wechat_id: openId },
      keys: [{ column: 'wechat_id', value: openId }],
      displayName: 'WeChat User',
      email: '',
      emailVerified: false,
      avatarUrl: '',
    };
  }
}
