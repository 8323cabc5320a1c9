import type { OptionKey } from '@one-hub/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingKeys } from '../../hooks/useOptions.js';
import { api, errorMessage } from '../../lib/api.js';

export interface SaveResult {
  saved: OptionKey[];
  /** The server's message for each key it refused. */
  failed: Partial<Record<OptionKey, string>>;
}

/**
 * `PUT /api/option/ {key, value}` for each edit, one after the other and in the given order, so
 * one refusal does not stop the others. Afterwards the options and the site info are read again
 * (the header, title and quota display follow the new values).
 */
export function useSaveOptions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (edits: Array<[OptionKey, string]>): Promise<SaveResult> => {
      const result: SaveResult = { saved: [], failed: {} };
      for (const [key, value] of edits) {
        try {
          await api.put<unknown>('/api/option/', { key, value });
          result.saved.push(key);
        } catch (error) {
          result.failed[key] = errorMessage(error);
        }
      }
      return result;
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: settingKeys.options }),
        queryClient.invalidateQueries({ queryKey: ['site'] }),
      ]),
    meta: { silentError: true },
  });
}
