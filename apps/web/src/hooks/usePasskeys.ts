import type { LoginUserView } from '@one-hub/contracts';
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.js';
import { useSession } from './useSession.js';

/** `GET /api/webauthn/credentials` items; `credential_id` is standard base64, as in the reference. */
export interface PasskeyItem {
  id: number;
  credential_id: string;
  alias: string;
  created_time: number;
}

export const passkeyKeys = { list: ['webauthn', 'credentials'] as const };

/** Whether this browser can use passkeys at all (WebAuthn needs HTTPS or localhost). */
export const passkeysSupported = () => browserSupportsWebAuthn();

/**
 * Signs in with a discoverable passkey: no username, the authenticator offers the passkeys it
 * holds for this site. The server's answer is the user, as after a password sign-in.
 */
export function usePasskeyLogin() {
  const { login } = useSession();
  return useMutation({
    mutationFn: async () => {
      const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>('/api/webauthn/login/begin', {});
      const assertion = await startAuthentication({ optionsJSON });
      return api.post<LoginUserView>('/api/webauthn/login/finish', assertion);
    },
    onSuccess: (user) => login(user),
  });
}

/** The signed-in user's passkeys; the server answers null (reference) or a list. */
export function usePasskeys(enabled: boolean) {
  return useQuery({
    queryKey: passkeyKeys.list,
    queryFn: async () => (await api.get<PasskeyItem[] | null>('/api/webauthn/credentials')) ?? [],
    enabled,
  });
}

/**
 * Creates a passkey on this device under the given name and saves it on the server. The server
 * adds one only for a session whose password was just confirmed, so the password goes first.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ alias, password }: { alias: string; password: string }) => {
      await api.post<unknown>('/api/webauthn/password_check', { password });
      const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>(
        '/api/webauthn/registration/begin',
        alias ? { alias } : {},
      );
      const attestation = await startRegistration({ optionsJSON });
      return api.post<PasskeyItem>('/api/webauthn/registration/finish', attestation);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list }),
  });
}

export function useDeletePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/webauthn/credentials/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list }),
  });
}
