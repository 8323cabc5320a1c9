import type { OptionEntry, SecretOptionStatus } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, isApiError } from '../lib/api.js';
import { type OptionsSnapshot, toSnapshot } from '../lib/optionsSnapshot.js';

export const settingKeys = {
  all: ['setting'] as const,
  options: ['setting', 'options'] as const,
};

/** `GET /api/option/` with `GET /api/option/secrets` (which secrets are set, never their values). Root only. */
export function useOptions(enabled: boolean) {
  return useQuery({
    queryKey: settingKeys.options,
    queryFn: async (): Promise<OptionsSnapshot> => {
      const [entries, secrets] = await Promise.all([
        api.get<OptionEntry[]>('/api/option/'),
        api.get<SecretOptionStatus[]>('/api/option/secrets'),
      ]);
      return toSnapshot(entries, secrets);
    },
    enabled,
    retry: (count, error) => count < 2 && !isApiError(error, 403),
    meta: { silentError: true },
  });
}
