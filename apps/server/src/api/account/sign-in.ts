import type { Cache } from '../../platform/cache/index.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { createMailer, type Mailer } from '../../platform/mail.js';
import type { OptionService } from '../option/service.js';
import type { UserRepository } from '../user/repo.js';
import type { UserService } from '../user/service.js';
import { AccountBindingRepository } from './bindings-repo.js';
import { EmailAccounts } from './email.js';
import { ExternalAccounts } from './oauth/external-accounts.js';
import { GITHUB_URLS, GitHubSignIn, type GitHubUrls } from './oauth/github.js';
import { LARK_URL, LarkSignIn } from './oauth/lark.js';
import { OidcSignIn } from './oauth/oidc.js';
import { OAuthStateCookie } from './oauth/state.js';
import { WeChatSignIn } from './oauth/wechat.js';
import { TURNSTILE_VERIFY_URL, TurnstileCheck } from './turnstile.js';
import { VerificationCodes } from './verification.js';

/** Public endpoints of the providers; tests point them at local mock servers. */
export interface SignInUpstreams {
  github: GitHubUrls;
  lark: string;
  turnstile: string;
}

/** Everything behind e-mail codes, password reset, Turnstile and the OAuth / OIDC sign-ins. */
export interface SignInServices {
  mailer: Mailer;
  email: EmailAccounts;
  external: ExternalAccounts;
  github: GitHubSignIn;
  lark: LarkSignIn;
  oidc: OidcSignIn;
  wechat: WeChatSignIn;
  oauthState: OAuthStateCookie;
  turnstile: TurnstileCheck;
}

export function createSignInServices(deps: {
  database: DatabaseHandle;
  cache: Cache;
  options: OptionService;
  userRepository: UserRepository;
  users: UserService;
  /** Signs the OAuth state cookie. */
  secret: string;
  upstreams?: Partial<SignInUpstreams> | undefined;
}): SignInServices {
  const { options } = deps;
  const upstreams = { github: GITHUB_URLS, lark: LARK_URL, turnstile: TURNSTILE_VERIFY_URL, ...deps.upstreams };
  const bindings = new AccountBindingRepository(deps.database);
  const mailer = createMailer(() => ({
    server: options.get('SMTPServer'),
    port: options.getNumber('SMTPPort'),
    account: options.get('SMTPAccount'),
    from: options.get('SMTPFrom'),
    token: options.get('SMTPToken'),
    senderName: options.get('SystemName'),
  }));
  return {
    mailer,
    email: new EmailAccounts(
      deps.userRepository,
      bindings,
      options,
      new VerificationCodes(deps.cache),
      mailer,
      deps.users.inviteRewards,
    ),
    external: new ExternalAccounts(bindings, deps.userRepository, deps.users, options),
    github: new GitHubSignIn(options, upstreams.github),
    lark: new LarkSignIn(options, upstreams.lark),
    oidc: new OidcSignIn(options),
    wechat: new WeChatSignIn(options),
    oauthState: new OAuthStateCookie(deps.secret),
    turnstile: new TurnstileCheck(options, deps.cache, upstreams.turnstile),
  };
}
