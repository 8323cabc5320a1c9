import type {
  AnalyticsPeriod,
  AnalyticsSummary,
  MultiUserStatsResponse,
  TopUsers,
  TopUsersOrder,
} from '@one-hub/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, api, withQuery } from '../../lib/api.js';
import { saveBlob } from '../../lib/download.js';
import { signalUnauthorized } from '../../lib/session.js';
import { type CompareQuery, compareSearch } from './compareForm.js';
import { type DayRange, rangeTimestamps } from './period.js';
import type { GroupType } from './series.js';

export const analyticsKeys = {
  all: ['analytics'] as const,
  summary: ['analytics', 'summary'] as const,
  period: (range: DayRange, groupType: GroupType) => ['analytics', 'period', range, groupType] as const,
  topUsers: (range: DayRange, order: TopUsersOrder, limit: number) =>
    ['analytics', 'top-users', range, order, limit] as const,
  compare: (query: CompareQuery | null) => ['analytics', 'compare', query] as const,
};

/** `GET /api/analytics/statistics`: users, channels, codes and orders right now. */
export function useAnalyticsSummary() {
  return useQuery({
    queryKey: analyticsKeys.summary,
    queryFn: () => api.get<AnalyticsSummary>('/api/analytics/statistics'),
    staleTime: 30_000,
  });
}

/** `GET /api/analytics/period`: per-day usage grouped by `groupType`, registrations and top-ups. */
export function useAnalyticsPeriod(range: DayRange, groupType: GroupType) {
  return useQuery({
    queryKey: analyticsKeys.period(range, groupType),
    queryFn: () =>
      api.get<AnalyticsPeriod>(
        withQuery('/api/analytics/period', { ...rangeTimestamps(range), group_type: groupType }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** `GET /api/analytics/top_users`: the heaviest users of the period. */
export function useTopUsers(range: DayRange, order: TopUsersOrder, limit: number) {
  return useQuery({
    queryKey: analyticsKeys.topUsers(range, order, limit),
    queryFn: () =>
      api.get<TopUsers>(withQuery('/api/analytics/top_users', { ...rangeTimestamps(range), order, limit })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

async function failure(response: Response): Promise<ApiError> {
  if (response.status === 401) signalUnauthorized();
  let message = '';
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // Not JSON: fall back to the status text.
  }
  return new ApiError(response.status, message || response.statusText);
}

/**
 * `GET /api/analytics/multi_user_stats`. Fetched by hand: the reference puts `model_usage` beside
 * `data` in the envelope, which the shared client (it answers `data` only) would drop.
 */
async function fetchComparison(query: CompareQuery): Promise<Omit<MultiUserStatsResponse, 'success' | 'message'>> {
  const response = await fetch(`/api/analytics/multi_user_stats?${compareSearch(query)}`, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok) throw await failure(response);
  const body = (await response.json()) as Partial<MultiUserStatsResponse>;
  if (!body.success) throw new ApiError(response.status, body.message ?? '');
  return { data: body.data ?? [], model_usage: body.model_usage ?? [] };
}

/** The comparison of the submitted form; nothing is asked before the first submit. */
export function useComparison(query: CompareQuery | null) {
  return useQuery({
    queryKey: analyticsKeys.compare(query),
    queryFn: () => fetchComparison(query as CompareQuery),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

/** Downloads the comparison as the server's CSV file (`multi_user_stats_<start>_<end>.csv`). */
export async function downloadComparisonCsv(query: CompareQuery): Promise<void> {
  const response = await fetch(`/api/analytics/multi_user_stats/export?${compareSearch(query)}`, {
    credentials: 'same-origin',
  });
  if (!response.ok) throw await failure(response);
  saveBlob(`multi_user_stats_${query.start_time}_${query.end_time}.csv`, await response.blob());
}
