import { isRecord } from '@one-hub/contracts';
import { AppError } from '../../../platform/errors.js';
import type { OptionService } from '../../option/service.js';
import type { ExternalIdentity } from './external-accounts.js';
import { callJson, textField } from './upstream.js';

export const LARK_URL = 'https://open.feishu.cn';

/**
 * Feishu / Lark web sign-in: the app's credentials buy an app access token, which turns the
 * callback code into a user access token, which reads the user's profile.
 */
export class LarkSignIn {
  constructor(
    private readonly options: OptionService,
    private readonly baseUrl = LARK_URL,
  ) {}

  async identify(code: string): Promise<ExternalIdentity> {
    if (!this.options.getBoolean('LarkAuthEnabled')) {
      throw AppError.forbidden('sign-in with Lark is not enabled on this site');
    }
    const appToken = await this.appAccessToken();
    const exchanged = await this.call('/open-apis/authen/v1/oidc/access_token', {
      headers: { authorization: `Bearer ${appToken}` },
      json: { grant_type: 'authorization_code', code },
    });
    const userToken = textField(exchanged.data, 'access_token');
    if (!exchanged.ok || !userToken) {
      throw AppError.badRequest(`Lark refused the sign-in code: ${exchanged.message || 'no access token'}`);
    }
    const info = await this.call('/open-apis/authen/v1/user_info', {
      method: 'GET',
      headers: { authorization: `Bearer ${userToken}` },
    });
    const openId = textField(info.data, 'open_id');
    if (!info.ok || !openId) {
      throw new AppError('upstream_error', `Lark did not return the signed-in user: ${info.message || 'no open_id'}`);
    }
    const email = textField(info.data, 'email');
    return {
      provider: 'lark',
      binding: { lark_id: openId },
      keys: [{ column: 'lark_id', value: openId }],
      displayName: textField(info.data, 'name') || textField(info.data, 'en_name'),
      email: email.length <= 50 ? email : '',
      // Feishu does not say whether the address was verified, so it never finds an existing user.
      emailVerified: false,
      avatarUrl: textField(info.data, 'avatar_url'),
    };
  }

  private async appAccessToken(): Promise<string> {
    const answer = await this.call('/open-apis/auth/v3/app_access_token/internal', {
      json: { app_id: this.options.get('LarkClientId'), app_secret: this.options.get('LarkClientSecret') },
    });
    const token = textField(answer.body, 'app_access_token');
    if (!answer.ok || !token) {
      throw new AppError('upstream_error', `Lark refused this site's app credentials: ${answer.message || 'no token'}`);
    }
    return token;
  }

  /** Feishu answers `{code, msg, data}`; `code` 0 means success whatever the HTTP status says. */
  private async call(path: string, call: Parameters<typeof callJson>[1]) {
    const answer = await callJson(`${this.baseUrl}${path}`, call, 'Lark');
    const body = isRecord(answer.body) ? answer.body : {};
    return { ok: body.code === 0, message: textField(body, 'msg'), data: body.data, body };
  }
}
