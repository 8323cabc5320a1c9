import { clientKey, type PriceView } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/** The part of `GET /api/available_model` the playground needs. */
type AvailableModels = Record<string, { groups: string[]; owned_by: string; price: PriceView }>;

export const playgroundKeys = {
  key: ['playground', 'key'] as const,
  /** Shared with the model-price screen: both read the same answer. */
  models: ['availableModels'] as const,
};

/** `POST /api/token/playground`: the key of the user's playground token (created on first use), as clients send it. */
export function usePlaygroundKey(enabled = true) {
  return useQuery({
    queryKey: playgroundKeys.key,
    queryFn: async () => clientKey(await api.post<string>('/api/token/playground')),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
    meta: { silentError: true },
  });
}

/** Chat models the user may call, by name; per-call (`times`) models are not chats. */
export function useChatModels(enabled = true) {
  return useQuery({
    queryKey: playgroundKeys.models,
    queryFn: () => api.get<AvailableModels>('/api/available_model'),
    staleTime: 60_000,
    enabled,
    meta: { silentError: true },
    select: (models) =>
      Object.entries(models)
        .filter(([, entry]) => entry.price?.type !== 'times')
        .map(([model, entry]) => ({ model, owner: entry.owned_by }))
        .sort((left, right) => left.model.localeCompare(right.model)),
  });
}
