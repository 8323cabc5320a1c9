import { isRecord } from '@one-hub/contracts';
import { nowSeconds } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { OptionService } from '../../option/service.js';
import type { ExternalIdentity } from './external-accounts.js';
import { type IdTokenClaims, IdTokenError, UnknownSigningKeyError, verifyIdToken } from './id-token.js';
import { codeChallenge, type StatePayload } from './state.js';
import { callJson, textField } from './upstream.js';

interface ProviderMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userinfoEndpoint: string;
  /** True when the token endpoint takes the client secret as form fields rather than Basic auth. */
  secretInBody: boolean;
}

/** Discovery documents and key sets change rarely; an unknown key id forces a key-set refetch. */
const CACHE_SECONDS = 3600;

const stripSlash = (value: string) => value.trim().replace(/\/+$/, '');

/** OpenID Connect authorization-code sign-in with any issuer that publishes discovery metadata. */
export class OidcSignIn {
  private metadata: { key: string; at: number; value: ProviderMetadata } | undefined;
  private keySet: { uri: string; at: number; value: unknown } | undefined;

  constructor(private readonly options: OptionService) {}

  /** Where the browser goes to sign in; the provider sends it back to the console's `/oauth/oidc`. */
  async authorizationUrl({ state, nonce, verifier }: StatePayload): Promise<string> {
    const metadata = await this.discover();
    const url = new URL(metadata.authorizationEndpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.options.get('OIDCClientId'));
    url.searchParams.set('redirect_uri', this.redirectUri());
    url.searchParams.set('scope', this.scopes());
    url.searchParams.set('state', state);
    url.searchParams.set('nonce', nonce);
    // PKCE binds the code to this browser's cookie; providers without PKCE ignore both fields.
    if (verifier) {
      url.searchParams.set('code_challenge', codeChallenge(verifier));
      url.searchParams.set('code_challenge_method', 'S256');
    }
    return url.toString();
  }

  /** The identity behind `code`; the ID token must carry the nonce of `started`, the checked state. */
  async identify(code: string, started: StatePayload): Promise<ExternalIdentity> {
    const metadata = await this.discover();
    const tokens = await this.exchange(metadata, code, started.verifier);
    let claims: IdTokenClaims;
    try {
      claims = await this.verify(metadata, tokens.idToken, started.nonce);
    } catch (error) {
      if (error instanceof IdTokenError) throw AppError.badRequest(`OIDC sign-in failed: ${error.message}`);
      throw error;
    }
    const usernameClaim = this.options.get('OIDCUsernameClaims').trim() || 'preferred_username';
    if (!textField(claims, usernameClaim) && metadata.userinfoEndpoint && tokens.accessToken) {
      claims = { ...(await this.userinfo(metadata, tokens.accessToken, claims.sub)), ...claims };
    }
    const username = textField(claims, usernameClaim).trim();
    const email = claims.email_verified === false ? '' : textField(claims, 'email');
    // Some issuers send the claim as a string.
    const emailVerified = claims.email_verified === true || claims.email_verified === 'true';
    return {
      provider: 'oidc',
      binding: { oidc_id: claims.sub },
      keys: [{ column: 'oidc_id', value: claims.sub }],
      // The username only names a new user; it never finds an existing one.
      ...(username ? { preferredUsername: username } : {}),
      displayName: textField(claims, 'name') || textField(claims, 'displayName') || username,
      email: email.length <= 50 ? email : '',
      emailVerified: emailVerified && email !== '' && email.length <= 50,
      avatarUrl: textField(claims, 'picture') || textField(claims, 'avatar'),
    };
  }

  private redirectUri(): string {
    return `${stripSlash(this.options.get('ServerAddress'))}/oauth/oidc`;
  }

  private scopes(): string {
    const scopes = this.options
      .get('OIDCScopes')
      .split(/[\s,]+/)
      .filter(Boolean);
    return [...new Set(['openid', ...scopes])].join(' ');
  }

  private async discover(): Promise<ProviderMetadata> {
    if (!this.options.getBoolean('OIDCAuthEnabled')) {
      throw AppError.forbidden('sign-in with OIDC is not enabled on this site');
    }
    const issuer = stripSlash(this.options.get('OIDCIssuer'));
    if (this.metadata?.key === issuer && nowSeconds() - this.metadata.at < CACHE_SECONDS) return this.metadata.value;
    const answer = await callJson(`${issuer}/.well-known/openid-configuration`, {}, 'the OIDC provider');
    const body = isRecord(answer.body) ? answer.body : {};
    const value: ProviderMetadata = {
      issuer: textField(body, 'issuer'),
      authorizationEndpoint: textField(body, 'authorization_endpoint'),
      tokenEndpoint: textField(body, 'token_endpoint'),
      jwksUri: textField(body, 'jwks_uri'),
      userinfoEndpoint: textField(body, 'userinfo_endpoint'),
      secretInBody: secretGoesInBody(body.token_endpoint_auth_methods_supported),
    };
    if (answer.status !== 200 || !value.authorizationEndpoint || !value.tokenEndpoint || !value.jwksUri) {
      throw new AppError(
        'upstream_error',
        `the OIDC provider's discovery document is incomplete (HTTP ${answer.status})`,
      );
    }
    // Discovery requires the document to name the issuer it was fetched from.
    if (stripSlash(value.issuer) !== issuer) {
      throw new AppError('upstream_error', 'the OIDC discovery document names a different issuer than OIDCIssuer');
    }
    this.metadata = { key: issuer, at: nowSeconds(), value };
    return value;
  }

  private async exchange(metadata: ProviderMetadata, code: string, verifier: string | undefined) {
    const clientId = this.options.get('OIDCClientId');
    const clientSecret = this.options.get('OIDCClientSecret');
    const form: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: this.redirectUri() };
    if (verifier) form.code_verifier = verifier;
    const headers: Record<string, string> = {};
    if (metadata.secretInBody) Object.assign(form, { client_id: clientId, client_secret: clientSecret });
    else {
      const credentials = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    const answer = await callJson(metadata.tokenEndpoint, { form, headers }, 'the OIDC provider');
    const idToken = textField(answer.body, 'id_token');
    if (answer.status !== 200 || !idToken) {
      const reason = textField(answer.body, 'error_description') || textField(answer.body, 'error') || 'no ID token';
      throw AppError.badRequest(`the OIDC provider refused the sign-in code: ${reason}`);
    }
    return { idToken, accessToken: textField(answer.body, 'access_token') };
  }

  private async verify(metadata: ProviderMetadata, idToken: string, nonce: string) {
    const expected = {
      issuer: metadata.issuer,
      clientId: this.options.get('OIDCClientId'),
      nonce,
      nowSeconds: nowSeconds(),
    };
    try {
      return await verifyIdToken(idToken, await this.keys(metadata.jwksUri, false), expected);
    } catch (error) {
      if (!(error instanceof UnknownSigningKeyError)) throw error;
      return verifyIdToken(idToken, await this.keys(metadata.jwksUri, true), expected);
    }
  }

  private async keys(uri: string, refresh: boolean): Promise<unknown> {
    const cached = this.keySet;
    if (!refresh && cached?.uri === uri && nowSeconds() - cached.at < CACHE_SECONDS) return cached.value;
    const answer = await callJson(uri, {}, 'the OIDC provider');
    if (answer.status !== 200) throw new AppError('upstream_error', `the OIDC key set answered HTTP ${answer.status}`);
    this.keySet = { uri, at: nowSeconds(), value: answer.body };
    return answer.body;
  }

  /** Claims from the userinfo endpoint, only if they describe the same subject as the ID token. */
  private async userinfo(metadata: ProviderMetadata, accessToken: string, subject: string) {
    const answer = await callJson(
      metadata.userinfoEndpoint,
      { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } },
      'the OIDC provider',
    );
    return answer.status === 200 && isRecord(answer.body) && answer.body.sub === subject ? answer.body : {};
  }
}

function secretGoesInBody(methods: unknown): boolean {
  if (!Array.isArray(methods) || methods.length === 0) return false;
  return !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
}
