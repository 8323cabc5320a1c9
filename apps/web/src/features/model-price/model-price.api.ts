import type { OwnedByView } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { AvailableModels } from './pricing.js';

export const modelPriceKeys = {
  available: ['availableModels'] as const,
  ownedBy: ['site', 'ownedBy'] as const,
};

/** `GET /api/available_model`: the models the signed-in user may call, with groups, owner and price. */
export function useAvailableModels() {
  return useQuery({
    queryKey: modelPriceKeys.available,
    queryFn: () => api.get<AvailableModels>('/api/available_model'),
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

/** `GET /api/ownedby`: model makers by channel type id (names and icons). The same for every visitor. */
export function useOwnedBy() {
  return useQuery({
    queryKey: modelPriceKeys.ownedBy,
    queryFn: () => api.get<Record<string, OwnedByView>>('/api/ownedby'),
    staleTime: 10 * 60_000,
    meta: { silentError: true },
  });
}
