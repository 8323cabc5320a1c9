import { isRecord } from '@one-hub/contracts';
import { AppError } from '../../../platform/errors.js';
import type { OptionService } from '../../option/service.js';
import type { ExternalIdentity } from './external-accounts.js';
import { callJson, textField } from './upstream.js';

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
  /** GitHub's `/user/emails` lists `email` as verified. */
  emailVerified: boolean;
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
      preferredUsername: profile.login,
      displayName: profile.name || profile.login,
      // Longer addresses are neither stored nor matched (the e-mail field holds 50 characters).
      email: profile.email.length <= 50 ? profile.email : '',
      emailVerified: profile.emailVerified && profile.email.length <= 50,
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
    const id = isRecord(user.body) ? user.body.id : undefined;
    if (user.status !== 200 || typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
      throw new AppError('upstream_error', `GitHub did not return the signed-in user (HTTP ${user.status})`);
    }
    // Only `/user/emails` says whether an address is verified; the profile's public one may not be.
    const verified = await this.verifiedEmails(headers);
    const email = textField(user.body, 'email') || verified.primary;
    return {
      id,
      login: textField(user.body, 'login'),
      name: textField(user.body, 'name'),
      email,
      emailVerified: email !== '' && verified.all.has(email.toLowerCase()),
      avatarUrl: textField(user.body, 'avatar_url'),
    };
  }

  /** The verified addresses (lower case) and the primary verified one; none when GitHub does not list them. */
  private async verifiedEmails(headers: Record<string, string>): Promise<{ all: Set<string>; primary: string }> {
    const answer = await callJson(`${this.urls.api}/user/emails`, { headers }, 'GitHub');
    const entries = answer.status === 200 && Array.isArray(answer.body) ? answer.body.filter(isRecord) : [];
    const verified = entries.filter((entry) => entry.verified === true && textField(entry, 'email'));
    return {
      all: new Set(verified.map((entry) => textField(entry, 'email').toLowerCase())),
      primary: textField(
        verified.find((entry) => entry.primary === true),
        'email',
      ),
    };
  }
}
