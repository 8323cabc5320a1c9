import type {
  CreatePlanBody,
  GrantPlanBody,
  Paged,
  PlanView,
  SubscriberView,
  UpdatePlanBody,
  UserView,
} from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';

/** What the plan list asks for; every field lives in the URL (see usePlanListParams). */
export interface PlanListParams {
  keyword: string;
  order: string;
  page: number;
  size: number;
}

export const planKeys = {
  all: ['plan'] as const,
  list: (params: PlanListParams) => ['plan', 'list', params] as const,
  subscribers: (planId: number, page: number) => ['plan', 'subscribers', planId, page] as const,
};

/** `GET /api/plan/` (administrators): every plan, enabled or not, searched by name and paged. */
export function usePlans(params: PlanListParams) {
  return useQuery({
    queryKey: planKeys.list(params),
    queryFn: () => api.get<Paged<PlanView>>(withQuery('/api/plan/', { ...params })),
    placeholderData: keepPreviousData,
  });
}

/** After a change: this list and the plans users are offered on the top-up page. */
function useInvalidatePlans() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: planKeys.all });
}

/** `POST /api/plan/` (no id) or `PUT /api/plan/`; the dialog shows refusals inline. */
export function useSavePlan() {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (body: CreatePlanBody | UpdatePlanBody) =>
      'id' in body ? api.put<PlanView>('/api/plan/', body) : api.post<PlanView>('/api/plan/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** `DELETE /api/plan/:id`; the dialog shows a refusal. */
export function useDeletePlan() {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/plan/${id}`),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/**
 * `POST /api/plan/grant`: gives a user the plan (or one more period of it). A username is first
 * looked up with `GET /api/user/?keyword=`, taking only an exact match.
 */
export function useGrantPlan() {
  return useMutation({
    mutationFn: async ({ plan_id, user }: { plan_id: number; user: { id: number } | { username: string } }) => {
      const user_id = 'id' in user ? user.id : await userIdByName(user.username);
      const body: GrantPlanBody = { user_id, plan_id };
      return api.post<unknown>('/api/plan/grant', body);
    },
    meta: { silentError: true },
  });
}

export class UnknownUserError extends Error {
  constructor(readonly username: string) {
    super(username);
  }
}

async function userIdByName(username: string): Promise<number> {
  const found = await api.get<Paged<UserView>>(withQuery('/api/user/', { keyword: username, size: 100 }));
  const user = found.data.find((entry) => entry.username === username);
  if (!user) throw new UnknownUserError(username);
  return user.id;
}

/** How many subscribers the dialog shows a page. */
export const SUBSCRIBERS_PAGE_SIZE = 10;

/** `GET /api/plan/subscriptions?plan_id=`: the plan's running subscriptions, newest first; off while `planId` is null. */
export function usePlanSubscribers(planId: number | null, page: number) {
  return useQuery({
    queryKey: planKeys.subscribers(planId ?? 0, page),
    queryFn: () =>
      api.get<Paged<SubscriberView>>(
        withQuery('/api/plan/subscriptions', { plan_id: planId ?? 0, page, size: SUBSCRIBERS_PAGE_SIZE }),
      ),
    enabled: planId !== null,
    // Another page of the same plan keeps the rows shown meanwhile; another plan's never stand in.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === planId ? previous : undefined),
  });
}

/**
 * `POST /api/plan/subscription/:id/end`; the confirmation dialog shows a refusal. The list is read
 * again either way: a refusal (ended meanwhile) means it was out of date.
 */
export function useEndSubscription() {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (id: number) => api.post<unknown>(`/api/plan/subscription/${id}/end`, {}),
    onSettled: invalidate,
    meta: { silentError: true },
  });
}

/** `GET /api/available_model`: model names offered as suggestions for a plan's models. */
export function useModelSuggestions() {
  return useQuery({
    queryKey: ['plan', 'models'] as const,
    queryFn: async () => Object.keys((await api.get<Record<string, unknown> | null>('/api/available_model')) ?? {}),
    staleTime: 5 * 60_000,
    meta: { silentError: true },
  });
}
