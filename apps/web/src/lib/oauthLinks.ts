/** Where the console sends the browser to bind an external account (spec §7 redirects). */

const GITHUB_AUTHORIZE = 'https://github.com/login/oauth/authorize';
const LARK_AUTHORIZE = 'https://open.feishu.cn/open-apis/authen/v1/authorize';
const TELEGRAM = 'https://t.me/';

export function githubAuthorizeUrl(clientId: string, state: string): string {
  const url = new URL(GITHUB_AUTHORIZE);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('state', state);
  url.searchParams.set('scope', 'user:email');
  return url.href;
}

/** `redirectUri` is the console's own /oauth/lark page on the current origin (with the base path). */
export function larkAuthorizeUrl(appId: string, state: string, redirectUri: string): string {
  const url = new URL(LARK_AUTHORIZE);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('app_id', appId);
  url.searchParams.set('state', state);
  return url.href;
}

/** The bot's chat, from the bot's username with or without "@". */
export function telegramBotUrl(botName: string): string {
  return `${TELEGRAM}${encodeURIComponent(botName.trim().replace(/^@/, ''))}`;
}
