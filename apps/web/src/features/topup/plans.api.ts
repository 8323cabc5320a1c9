import type { PayInstruction, PlanOrderBody, PlanView } from '@one-hub/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/** `GET /api/plan/available`: the plans on sale, highest sort first. Optional on the page, so not toasted. */
export function useAvailablePlans() {
  return useQuery({
    queryKey: ['plan', 'available'] as const,
    queryFn: async () => {
      const plans = await api.get<PlanView[] | { data: PlanView[] } | null>('/api/plan/available');
      const list = Array.isArray(plans) ? plans : (plans?.data ?? []);
      return [...list].sort((left, right) => right.sort - left.sort || left.id - right.id);
    },
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

/**
 * `POST /api/user/plan/order`: answered like a top-up order, so the same pay dialog takes it. A
 * refusal (another plan still active: 409) is shown as the server's message (toast).
 */
export function useCreatePlanOrder() {
  return useMutation({
    mutationFn: (body: PlanOrderBody) => api.post<PayInstruction>('/api/user/plan/order', body),
  });
}
