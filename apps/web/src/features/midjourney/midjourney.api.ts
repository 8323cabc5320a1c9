import type { MidjourneyTaskView, Paged } from '@one-hub/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';
import { midjourneyQuery } from './midjourneyQuery.js';

export type { MidjourneyFilters, MidjourneyListParams } from './midjourneyParams.js';

import type { MidjourneyListParams } from './midjourneyParams.js';

export const midjourneyKeys = {
  all: ['midjourney'] as const,
  list: (admin: boolean, params: MidjourneyListParams) => ['midjourney', 'list', admin, params] as const,
};

/** Everyone's drawings (`GET /api/mj/`) for administrators, the caller's own (`GET /api/mj/self`) otherwise. */
export function useMidjourneyTasks(admin: boolean, params: MidjourneyListParams) {
  return useQuery({
    queryKey: midjourneyKeys.list(admin, params),
    queryFn: () =>
      api.get<Paged<MidjourneyTaskView>>(
        withQuery(admin ? '/api/mj/' : '/api/mj/self', midjourneyQuery(params, admin)),
      ),
    placeholderData: keepPreviousData,
  });
}
