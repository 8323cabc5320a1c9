import { AppError } from '../../../platform/errors.js';
import type { OptionService } from '../../option/service.js';
import type { ExternalIdentity } from './external-accounts.js';
import { callJson, isObject, textField } from './upstream.js';

export interface GitHubUrls {
  /** Where the OAuth code is exchanged: `<web>/login/oauth/access_token`. */
  web: string;
  /** The REST API: `<api>/user`, `<api>/user/emails`. */
  api: string;
}

export const GITHUB_URLS: GitHubUrls = { web: 'https://github.com', api: 'https://api.github.com' };

interface GitHubProfile {
  id: number;
  login: string;
  name: string;
  email: string;
  avatarUrl: string;
}

/** GitHub's OAuth web flow: the code from the callback becomes a GitHub user. */
export class GitHubSignIn {
  constructor(
    private readonly options: OptionService,
    private readonly urls: GitHubUrls = GITHUB_URLS,
  ) {}

  async identify(code: string): Promise<ExternalIdentity> {
    if (!this.options.getBoolean('GitHubOAuthEnabled')) {
      throw AppError.forbidden('sign-in with GitHub is not enabled on this site');
    }
    const profile = await this.profile(await this.exchange(code));
    const oldIdsClosed = this.options.getBoolean('GitHubOldIdCloseEnabled');
    return {
      provider: 'github',
      binding: { github_id_new: profile.id, github_id: profile.login },
      keys: [
        { column: 'github_id_new', value: profile.id },
        ...(oldIdsClosed ? [] : [{ column: 'github_id' as const, value: profile.login }]),
      ],
      ...(profile.email ? { matchEmail: profile.email } : {}),
      preferredUsername: profile.login,
      displayName: profile.name || profile.login,
      // Longer addresses are still matched, but not stored (the e-mail field holds 50 characters).
      email: profile.email.length <= 50 ? profile.email : '',
      avatarUrl: profile.avatarUrl,
    };
  }

  private async exchange(code: string): Promise<string> {
    const answer = await callJson(
      `${this.urls.web}/login/oauth/access_token`,
      {
        form: {
          client_id: this.options.get('GitHubClientId'),
          client_secret: this.options.get('GitHubClientSecret'),
          code,
        },
      },
      'GitHub',
    );
    const token = textField(answer.body, 'access_token');
    if (answer.status === 200 && token) return token;
    // GitHub reports a bad or used code as HTTP 200 with an `error` field.
    const reason = textField(answer.body, 'error_description') || textField(answer.body, 'error') || 'no access token';
    throw AppError.badRequest(`GitHub refused the sign-in code: ${reason}`);
  }

  private async profile(token: string): Promise<GitHubProfile> {
    const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json' };
    const user = await callJson(`${this.urls.api}/user`, { headers }, 'GitHub');
    const id = isObject(user.body) ? user.body.id : undefined;
    if (user.status !== 200 || typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
      throw new AppError('upstream_error', `GitHub did not return the signed-in user (HTTP ${user.status})`);
    }
    let email = textField(user.body, 'email');
    if (!email) {
      // The profile shows only a public address; the primary verified one needs the e-mails call.
      const emails = await callJson(`${this.urls.api}/user/emails`, { headers }, 'GitHub');
      const primary = Array.isArray(emails.body)
        ? emails.body.find((entry) => isObject(entry) && entry.primary === true && entry.verified === true)
        : undefined;
      email = textField(primary, 'email');
    }
    return {
      id,
      login: textField(user.body, 'login'),
      name: textField(user.body, 'name'),
      email,
      avatarUrl: textField(user.body, 'avatar_url'),
    };
  }
}
