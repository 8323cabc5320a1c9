import type { SignInUpstreams } from '../../../src/api/account/sign-in.js';
import { type HttpMock, startHttpMock } from './http-mock.js';
import { OidcProviderMock } from './oidc-provider.js';
import { GitHubMock, LarkMock, TurnstileMock, WeChatServerMock } from './providers.js';

export interface ProviderMocks {
  server: HttpMock;
  github: GitHubMock;
  lark: LarkMock;
  wechat: WeChatServerMock;
  turnstile: TurnstileMock;
  oidc: OidcProviderMock;
  /** Where the app under test must send its provider calls. */
  upstreams: SignInUpstreams;
  /** Option values that switch every provider on against the mocks. */
  options(): Record<string, string>;
  /** Every credential and token the providers know or handed out; none may reach a response. */
  secrets(): string[];
}

export async function startProviderMocks(): Promise<ProviderMocks> {
  const github = new GitHubMock();
  const lark = new LarkMock();
  const wechat = new WeChatServerMock();
  const turnstile = new TurnstileMock();
  const oidc = new OidcProviderMock();
  const server = await startHttpMock([github.handler, lark.handler, wechat.handler, turnstile.handler, oidc.handler]);
  oidc.mount(server.url);
  return {
    server,
    github,
    lark,
    wechat,
    turnstile,
    oidc,
    upstreams: {
      github: { web: `${server.url}/github`, api: `${server.url}/github-api` },
      lark: `${server.url}/lark`,
      turnstile: `${server.url}/turnstile/siteverify`,
    },
    options: () => ({
      GitHubClientId: github.clientId,
      GitHubClientSecret: github.clientSecret,
      GitHubOAuthEnabled: 'true',
      LarkClientId: lark.appId,
      LarkClientSecret: lark.appSecret,
      LarkAuthEnabled: 'true',
      WeChatServerAddress: `${server.url}/wechat`,
      WeChatServerToken: wechat.serverToken,
      WeChatAccountQRCodeImageURL: 'https://example.com/qr.png',
      WeChatAuthEnabled: 'true',
      OIDCClientId: oidc.clientId,
      OIDCClientSecret: oidc.clientSecret,
      OIDCIssuer: oidc.issuer,
      OIDCScopes: 'openid,email,profile',
      OIDCUsernameClaims: 'preferred_username',
      OIDCAuthEnabled: 'true',
      ServerAddress: 'https://hub.example.com',
    }),
    secrets: () => [
      github.clientSecret,
      ...github.issued,
      lark.appSecret,
      ...lark.issued,
      wechat.serverToken,
      turnstile.secret,
      oidc.clientSecret,
      ...oidc.issued,
    ],
  };
}
