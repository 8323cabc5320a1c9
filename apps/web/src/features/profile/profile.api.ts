import type {
  BindingType,
  EmailBindQuery,
  EmailCodeQuery,
  SelfUpdateBody,
  UserView,
  WeChatCodeQuery,
} from '@one-hub/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { passkeyKeys } from '../../hooks/usePasskeys.js';
import { selfQueryKey } from '../../hooks/useSelf.js';
import { api, withQuery } from '../../lib/api.js';

/** `['user', 'self']` is shared with the session guard: a new display name reaches the drawer and avatar too. */
export const profileKeys = {
  self: selfQueryKey,
};

/** Invalidates the user after a change, so every screen showing it reloads. */
function useRefreshSelf() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: profileKeys.self });
}

/**
 * `PUT /api/user/self {display_name, password?, original_password?, remove_passkeys?}`; a new password ends the other
 * sessions and revokes the access token, and the server keeps this session signed in.
 */
export function useUpdateSelf() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SelfUpdateBody) => api.put<UserView>('/api/user/self', body),
    onSuccess: (user, body) => {
      queryClient.setQueryData(profileKeys.self, user);
      if (body.remove_passkeys) void queryClient.invalidateQueries({ queryKey: passkeyKeys.list });
      return queryClient.invalidateQueries({ queryKey: profileKeys.self });
    },
  });
}

/** `POST /api/user/token`: replaces the access token and returns the new one, shown this once. */
export function useRegenerateAccessToken() {
  const refresh = useRefreshSelf();
  return useMutation({
    mutationFn: () => api.post<string>('/api/user/token'),
    onSuccess: () => refresh(),
  });
}

/** `GET /api/verification?email=[&turnstile=]`: mails a code to an address no user holds yet. */
export function useSendEmailCode() {
  return useMutation({
    mutationFn: ({ email, turnstile }: EmailCodeQuery & { turnstile?: string }) =>
      api.get<unknown>(withQuery('/api/verification', { email, turnstile })),
  });
}

/** `GET /api/oauth/email/bind?email&code`. */
export function useBindEmail() {
  const refresh = useRefreshSelf();
  return useMutation({
    mutationFn: (query: EmailBindQuery) => api.get<unknown>(withQuery('/api/oauth/email/bind', query)),
    onSuccess: () => refresh(),
  });
}

/** `GET /api/oauth/wechat/bind?code=`: the code the site's WeChat account replied with. */
export function useBindWeChat() {
  const refresh = useRefreshSelf();
  return useMutation({
    mutationFn: (query: WeChatCodeQuery) => api.get<unknown>(withQuery('/api/oauth/wechat/bind', query)),
    onSuccess: () => refresh(),
  });
}

/** `POST /api/user/unbind {type}`. */
export function useUnbind() {
  const refresh = useRefreshSelf();
  return useMutation({
    mutationFn: (type: BindingType) => api.post<unknown>('/api/user/unbind', { type }),
    onSuccess: () => refresh(),
  });
}

/** `GET /api/oauth/state`: the state GitHub and Lark must send back (kept by the server in a cookie). */
export function fetchOAuthState(): Promise<string> {
  return api.get<string>('/api/oauth/state');
}

/** `GET /api/oauth/endpoint`: the OIDC provider's sign-in address, with its state. */
export function fetchOidcEndpoint(): Promise<string> {
  return api.get<string>('/api/oauth/endpoint');
}
