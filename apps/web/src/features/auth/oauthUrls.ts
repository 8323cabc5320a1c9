/** Where each sign-in provider's authorization page lives (spec §7). */
export const GITHUB_AUTHORIZE_URL = 'https://github.com/login/oauth/authorize';
export const LARK_AUTHORIZE_URL = 'https://open.feishu.cn/open-apis/authen/v1/authorize';

/** The providers that send the browser back to `/oauth/<provider>` with `code` and `state`. */
export const oauthProviders = ['github', 'oidc', 'lark'] as const;
export type OAuthProvider = (typeof oauthProviders)[number];

/** GitHub's authorize page for this site's OAuth app, asking to read the user's e-mail addresses. */
export function githubAuthorizeUrl(clientId: string, state: string): string {
  const url = new URL(GITHUB_AUTHORIZE_URL);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('state', state);
  url.searchParams.set('scope', 'user:email');
  return url.href;
}

/** Feishu's authorize page; `redirectUri` is this console's own `/oauth/lark` page. */
export function larkAuthorizeUrl(appId: string, state: string, redirectUri: string): string {
  const url = new URL(LARK_AUTHORIZE_URL);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('app_id', appId);
  url.searchParams.set('state', state);
  return url.href;
}

export interface OAuthReturn {
  code: string;
  state: string;
  /** What the provider said when it refused (`error_description`, else `error`); '' when it did not. */
  providerError: string;
}

/** Reads what the provider appended to the return address. */
export function readOAuthReturn(search: string): OAuthReturn {
  const parameters = new URLSearchParams(search);
  const text = (name: string) => parameters.get(name)?.trim() ?? '';
  return {
    code: text('code'),
    state: text('state'),
    providerError: text('error_description') || text('error'),
  };
}
