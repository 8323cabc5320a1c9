import type { LoginBody, LoginUserView, PasswordResetBody, RegisterBody } from '@one-hub/contracts';
import { useMutation } from '@tanstack/react-query';
import { useSession } from '../../hooks/useSession.js';
import { i18n } from '../../i18n/index.js';
import { ApiError, api, withQuery } from '../../lib/api.js';
import { noteSignInPassword } from '../../lib/signInPassword.js';
import { readText, storageKeys } from '../../lib/storage.js';
import type { OAuthProvider } from './oauthUrls.js';

/** `?turnstile=<token>` for the routes behind the Turnstile check; nothing when there is no token. */
const turnstileQuery = (turnstile?: string) => (turnstile ? { turnstile } : {});

/** Signs in; on success the user is stored (spec §4). The caller navigates and shows any error. */
export function useLogin() {
  const { login } = useSession();
  return useMutation({
    mutationFn: (body: LoginBody) => api.post<LoginUserView>('/api/user/login', body),
    onSuccess: (user, body) => {
      // A password the server made up is replaced right away; the dialog uses this one as the current.
      noteSignInPassword(body.password, user.password_change_required);
      login(user);
    },
    meta: { silentError: true },
  });
}

/** `POST /api/user/register[?turnstile=]`: creates an account; it does not sign in. The form shows errors. */
export function useRegister() {
  return useMutation({
    mutationFn: (input: { body: RegisterBody; turnstile?: string }) =>
      api.post<LoginUserView>(withQuery('/api/user/register', turnstileQuery(input.turnstile)), input.body),
    meta: { silentError: true },
  });
}

/** The referral code saved from `?aff=` on any public page, sent on registration and OAuth sign-in. */
export function storedAffCode(): string | undefined {
  return readText(storageKeys.aff) || undefined;
}

/** `GET /api/oauth/state`: the state to hand to GitHub or Feishu. Errors are toasted (spec §7). */
export function useOAuthState() {
  return useMutation({ mutationFn: () => api.get<string>('/api/oauth/state') });
}

/** `GET /api/oauth/endpoint`: the OIDC provider's sign-in address. Errors are toasted (spec §7). */
export function useOidcEndpoint() {
  return useMutation({ mutationFn: () => api.get<string>('/api/oauth/endpoint') });
}

/** `GET /api/oauth/wechat?code=&aff=`: signs in with the code the WeChat account replied with. */
export function useWeChatLogin() {
  const { login } = useSession();
  return useMutation({
    mutationFn: (code: string) =>
      api.get<LoginUserView>(withQuery('/api/oauth/wechat', { code, aff: storedAffCode() })),
    onSuccess: (user) => login(user),
    meta: { silentError: true },
  });
}

/** What an OAuth return page ends with: a sign-in (the user) or a binding to the signed-in user. */
export type OAuthOutcome = { kind: 'login'; user: LoginUserView } | { kind: 'bind' };

function isLoginUser(value: unknown): value is LoginUserView {
  return typeof value === 'object' && value !== null && 'id' in value && 'username' in value;
}

/**
 * `GET /api/oauth/<provider>?code&state&aff`. The server answers a binding with message "bind" and
 * no data, a sign-in with the user.
 */
export function useOAuthCallback(provider: OAuthProvider) {
  const { login } = useSession();
  return useMutation({
    mutationFn: async (input: { code: string; state: string }): Promise<OAuthOutcome> => {
      const { data, message } = await api.getAnswer<unknown>(
        withQuery(`/api/oauth/${provider}`, { code: input.code, state: input.state, aff: storedAffCode() }),
      );
      if (message === 'bind') return { kind: 'bind' };
      if (!isLoginUser(data)) throw new ApiError(200, i18n.t('common:error.unexpectedResponse'));
      return { kind: 'login', user: data };
    },
    onSuccess: (outcome) => {
      if (outcome.kind === 'login') login(outcome.user);
    },
    meta: { silentError: true },
  });
}

/** `GET /api/verification?email=`: mails a registration code. Errors are toasted. */
export function useSendVerificationCode() {
  return useMutation({
    mutationFn: (input: { email: string; turnstile?: string }) =>
      api.get<unknown>(withQuery('/api/verification', { email: input.email, ...turnstileQuery(input.turnstile) })),
  });
}

/** `GET /api/reset_password?email=`: mails a reset link. The form shows errors itself. */
export function useSendPasswordReset() {
  return useMutation({
    mutationFn: (input: { email: string; turnstile?: string }) =>
      api.get<unknown>(withQuery('/api/reset_password', { email: input.email, ...turnstileQuery(input.turnstile) })),
    meta: { silentError: true },
  });
}

/** A passkey as a reset's answer lists it. */
export interface ResetPasskey {
  id: number;
  alias: string;
  created_time: number;
}

/**
 * `POST /api/user/reset {email, token, remove_passkeys?}`: the answer is the new, random password,
 * and beside it the passkeys the account still has (they sign in without the password).
 */
export function useResetPassword() {
  return useMutation({
    mutationFn: async (body: PasswordResetBody) => {
      const answer = await api.postAnswer<string>('/api/user/reset', body);
      const passkeys = Array.isArray(answer.envelope.passkeys) ? (answer.envelope.passkeys as ResetPasskey[]) : [];
      return { password: answer.data, passkeys };
    },
    meta: { silentError: true },
  });
}
