import { randomBytes } from 'node:crypto';
import { bearer, field, type MockHandler } from './http-mock.js';

/**
 * Stand-ins for GitHub, Feishu (Lark), a wechat-server and Cloudflare Turnstile, answering in
 * the shapes their documentation gives. All live on one mock server under path prefixes:
 * `/github` (web), `/github-api` (REST API), `/lark`, `/wechat`, `/turnstile`.
 */

const token = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

export interface GitHubAccount {
  id: number;
  login: string;
  name: string;
  /** The profile's public address; null makes the client ask `/user/emails`. */
  publicEmail: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export class GitHubMock {
  readonly clientId = 'gh-client-id';
  readonly clientSecret = 'gh-client-secret-value';
  /** Every access token handed out, to check none leaks. */
  readonly issued: string[] = [];
  private readonly codes = new Map<string, GitHubAccount>();
  private readonly sessions = new Map<string, GitHubAccount>();

  /** A one-time code that GitHub would put in the callback for this account. */
  codeFor(account: GitHubAccount): string {
    const code = token('ghcode');
    this.codes.set(code, account);
    return code;
  }

  readonly handler: MockHandler = (call) => {
    if (call.method === 'POST' && call.path === '/github/login/oauth/access_token') {
      if (field(call, 'client_id') !== this.clientId || field(call, 'client_secret') !== this.clientSecret) {
        return {
          body: {
            error: 'incorrect_client_credentials',
            error_description: 'The client_id and/or client_secret passed are incorrect.',
          },
        };
      }
      const account = this.codes.get(field(call, 'code'));
      if (!account) {
        return {
          body: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' },
        };
      }
      this.codes.delete(field(call, 'code'));
      const accessToken = token('gho_');
      this.issued.push(accessToken);
      this.sessions.set(accessToken, account);
      return { body: { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' } };
    }
    if (!call.path.startsWith('/github-api/')) return undefined;
    const account = this.sessions.get(bearer(call));
    if (!account) return { status: 401, body: { message: 'Bad credentials' } };
    if (call.path === '/github-api/user') {
      return {
        body: {
          login: account.login,
          id: account.id,
          name: account.name,
          email: account.publicEmail,
          avatar_url: `https://avatars.example/u/${account.id}`,
        },
      };
    }
    if (call.path === '/github-api/user/emails') {
      return { body: account.emails.map((entry) => ({ ...entry, visibility: entry.primary ? 'private' : null })) };
    }
    return undefined;
  };
}

export interface LarkAccount {
  open_id: string;
  name: string;
  email: string;
}

export class LarkMock {
  readonly appId = 'cli_test_app';
  readonly appSecret = 'lark-app-secret-value';
  readonly issued: string[] = [];
  private readonly codes = new Map<string, LarkAccount>();
  private readonly userTokens = new Map<string, LarkAccount>();
  private readonly appTokens = new Set<string>();

  codeFor(account: LarkAccount): string {
    const code = token('larkcode');
    this.codes.set(code, account);
    return code;
  }

  readonly handler: MockHandler = (call) => {
    if (call.path === '/lark/open-apis/auth/v3/app_access_token/internal') {
      if (field(call, 'app_id') !== this.appId || field(call, 'app_secret') !== this.appSecret) {
        return { body: { code: 10014, msg: 'app secret invalid' } };
      }
      const appToken = token('a-');
      this.appTokens.add(appToken);
      this.issued.push(appToken);
      return {
        body: { code: 0, msg: 'ok', app_access_token: appToken, tenant_access_token: token('t-'), expire: 7200 },
      };
    }
    if (call.path === '/lark/open-apis/authen/v1/oidc/access_token') {
      if (!this.appTokens.has(bearer(call)))
        return { body: { code: 99991663, msg: 'Invalid access token for authorization.' } };
      const account = this.codes.get(field(call, 'code'));
      if (field(call, 'grant_type') !== 'authorization_code' || !account) {
        return { body: { code: 20003, msg: 'The authorization code is invalid or has expired.' } };
      }
      this.codes.delete(field(call, 'code'));
      const userToken = token('u-');
      this.userTokens.set(userToken, account);
      this.issued.push(userToken);
      return {
        body: { code: 0, msg: 'success', data: { access_token: userToken, token_type: 'Bearer', expires_in: 6900 } },
      };
    }
    if (call.path === '/lark/open-apis/authen/v1/user_info') {
      const account = this.userTokens.get(bearer(call));
      if (!account) return { body: { code: 99991668, msg: 'Invalid access token for authorization.' } };
      return {
        body: {
          code: 0,
          msg: 'success',
          data: { ...account, en_name: account.name, avatar_url: 'https://lark.example/a.png', union_id: 'on_1' },
        },
      };
    }
    return undefined;
  };
}

export class WeChatServerMock {
  readonly serverToken = 'wechat-server-token-value';
  private readonly codes = new Map<string, string>();

  codeFor(openId: string): string {
    const code = token('').slice(0, 6);
    this.codes.set(code, openId);
    return code;
  }

  readonly handler: MockHandler = (call) => {
    if (call.path !== '/wechat/api/wechat/user') return undefined;
    if (call.headers.authorization !== this.serverToken) {
      return { status: 401, body: { success: false, message: 'no permission for this operation' } };
    }
    const openId = this.codes.get(call.query.get('code') ?? '');
    if (!openId) return { body: { success: false, message: 'the verification code is wrong or has expired' } };
    this.codes.delete(call.query.get('code') ?? '');
    return { body: { success: true, message: '', data: openId } };
  };
}

export class TurnstileMock {
  readonly secret = 'turnstile-secret-value';
  private readonly valid = new Set<string>();

  /** A token the widget would hand the browser after a solved challenge; it verifies once. */
  solved(): string {
    const value = token('0.turnstile-');
    this.valid.add(value);
    return value;
  }

  readonly handler: MockHandler = (call) => {
    if (call.path !== '/turnstile/siteverify') return undefined;
    if (field(call, 'secret') !== this.secret)
      return { body: { success: false, 'error-codes': ['invalid-input-secret'] } };
    const response = field(call, 'response');
    if (!this.valid.delete(response)) return { body: { success: false, 'error-codes': ['invalid-input-response'] } };
    return {
      body: { success: true, 'error-codes': [], challenge_ts: new Date().toISOString(), hostname: 'localhost' },
    };
  };
}
