import { describe, expect, it } from 'vitest';
import { githubAuthorizeUrl, larkAuthorizeUrl, readOAuthReturn } from './oauthUrls.js';

describe('authorize addresses', () => {
  it('sends GitHub the client id, the state and the e-mail scope', () => {
    const url = new URL(githubAuthorizeUrl('Iv1.abc', 'state123'));
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'Iv1.abc',
      state: 'state123',
      scope: 'user:email',
    });
  });

  it('sends Feishu the return page, the app id and the state, encoded', () => {
    const url = new URL(larkAuthorizeUrl('cli_1', 's&1', 'https://hub.example.com/base/oauth/lark'));
    expect(url.origin + url.pathname).toBe('https://open.feishu.cn/open-apis/authen/v1/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe('https://hub.example.com/base/oauth/lark');
    expect(url.searchParams.get('app_id')).toBe('cli_1');
    expect(url.searchParams.get('state')).toBe('s&1');
  });
});

describe('readOAuthReturn', () => {
  it('reads code and state', () => {
    expect(readOAuthReturn('?code=abc&state=xyz')).toEqual({ code: 'abc', state: 'xyz', providerError: '' });
  });

  it('reports the provider’s refusal, preferring its description', () => {
    expect(readOAuthReturn('?error=access_denied&error_description=The+user+said+no').providerError).toBe(
      'The user said no',
    );
    expect(readOAuthReturn('?error=access_denied').providerError).toBe('access_denied');
  });

  it('gives empty values when nothing came back', () => {
    expect(readOAuthReturn('')).toEqual({ code: '', state: '', providerError: '' });
  });
});
