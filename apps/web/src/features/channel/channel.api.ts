import {
  type ChannelDetailView,
  type ChannelHealthHistory,
  type ChannelHealthView,
  type ChannelTagView,
  type ChannelView,
  type CreateChannelBody,
  isRecord,
  type Paged,
  type PriceView,
  type ProviderView,
  type UpdateChannelBody,
  type UpdateChannelTagBody,
} from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { i18n } from '../../i18n/index.js';
import { ApiError, api, withQuery } from '../../lib/api.js';
import { signalUnauthorized } from '../../lib/session.js';
import type { ChannelListParams } from './useChannelListParams.js';

export const channelKeys = {
  all: ['channel'] as const,
  /** Everything that lists channel rows: the pages and the expanded tags. */
  rows: ['channel', 'rows'] as const,
  list: (query: ChannelListQueryParams) => ['channel', 'rows', 'list', query] as const,
  tagList: (tag: string) => ['channel', 'rows', 'tag', tag] as const,
  detail: (id: number) => ['channel', 'detail', id] as const,
  tagDetail: (tag: string) => ['channel', 'tag-detail', tag] as const,
  tags: ['channel', 'tags'] as const,
  providers: ['channel', 'providers'] as const,
  groups: ['channel', 'groups'] as const,
  prices: ['channel', 'prices'] as const,
  testStatus: ['channel', 'test-status'] as const,
  health: ['channel', 'health'] as const,
  healthHistory: (id: number) => ['channel', 'health', id] as const,
};

/** How often the health the list and the chart show is read again while they are on screen. */
const HEALTH_REFRESH_MS = 15_000;

export interface ChannelListQueryParams extends ChannelListParams {
  /** Exact key filter; kept out of the URL. */
  key: string;
}

/** `GET /api/channel/`: one page of channels (never with their keys). */
export function useChannels(query: ChannelListQueryParams) {
  return useQuery({
    queryKey: channelKeys.list(query),
    queryFn: () => api.get<Paged<ChannelView>>(withQuery('/api/channel/', { ...query })),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/channel/health`: each routed channel's health on the node that answers, by channel id. */
export function useChannelHealth() {
  return useQuery({
    queryKey: channelKeys.health,
    queryFn: () => api.get<ChannelHealthView[]>('/api/channel/health'),
    select: (views) => new Map(views.map((view) => [view.channel_id, view])),
    refetchInterval: HEALTH_REFRESH_MS,
  });
}

/** `GET /api/channel/health/:id`: one channel's last hour by minute, while its chart is open. */
export function useChannelHealthHistory(id: number | null) {
  return useQuery({
    queryKey: channelKeys.healthHistory(id ?? 0),
    queryFn: () => api.get<ChannelHealthHistory>(`/api/channel/health/${id}`),
    enabled: id !== null,
    refetchInterval: HEALTH_REFRESH_MS,
  });
}

/** `GET /api/channel_tag/:tag/list`: every channel of a tag, when its row is expanded. */
export function useTagChannels(tag: string, enabled: boolean) {
  return useQuery({
    queryKey: channelKeys.tagList(tag),
    queryFn: () => api.get<ChannelView[]>(`/api/channel_tag/${encodeURIComponent(tag)}/list`),
    enabled,
  });
}

/** `GET /api/channel/:id`: the channel with its key, for the edit dialog. */
export function useChannelDetail(id: number | null) {
  return useQuery({
    queryKey: channelKeys.detail(id ?? 0),
    queryFn: () => api.get<ChannelDetailView>(`/api/channel/${id}`),
    enabled: id !== null,
    gcTime: 0,
    meta: { silentError: true },
  });
}

/** `GET /api/channel_tag/:tag`: the tag's first channel with every key of the tag, for the tag editor. */
export function useTagDetail(tag: string | null) {
  return useQuery({
    queryKey: channelKeys.tagDetail(tag ?? ''),
    queryFn: () => api.get<ChannelTagView>(`/api/channel_tag/${encodeURIComponent(tag ?? '')}`),
    enabled: tag !== null,
    gcTime: 0,
    meta: { silentError: true },
  });
}

/** Channel types and their settings come only from the server (`GET /api/providers`). */
export function useProviders() {
  return useQuery({
    queryKey: channelKeys.providers,
    queryFn: () => api.get<ProviderView[]>('/api/providers'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Symbols of the enabled user groups. */
export function useGroupSymbols() {
  return useQuery({
    queryKey: channelKeys.groups,
    queryFn: () => api.get<string[]>('/api/group/'),
    staleTime: 60_000,
  });
}

export function useChannelTags() {
  return useQuery({
    queryKey: channelKeys.tags,
    queryFn: async () => (await api.get<Array<{ tag: string }>>('/api/channel_tag/_all')).map((entry) => entry.tag),
    staleTime: 30_000,
  });
}

/** The price table, for "the models priced for this type" in the form. */
export function usePrices(enabled: boolean) {
  return useQuery({
    queryKey: channelKeys.prices,
    queryFn: () => api.get<PriceView[]>('/api/prices'),
    enabled,
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

// ---- calls whose answers are not the usual envelope ----

interface RawAnswer {
  status: number;
  payload: Record<string, unknown>;
}

/** A call for the few routes that answer outside `{success, message, data}` or take a DELETE body. */
async function rawCall(method: 'GET' | 'DELETE', path: string, body?: unknown): Promise<RawAnswer> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, i18n.t('common:error.network'));
  }
  if (response.status === 401) signalUnauthorized();
  const payload: unknown = await response.json().catch(() => null);
  const record = isRecord(payload) ? payload : {};
  if (typeof record.success !== 'boolean') throw new ApiError(response.status, response.statusText);
  return { status: response.status, payload: record };
}

function failure(answer: RawAnswer): ApiError {
  const message = typeof answer.payload.message === 'string' ? answer.payload.message : '';
  const field = typeof answer.payload.field === 'string' ? answer.payload.field : undefined;
  return new ApiError(answer.status, message, field);
}

export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** Seconds the upstream took. */
  time: number;
}

/** `GET /api/channel/test/:id`: a failed probe (502) is a result too; a refused call (400, 404) throws. */
export async function testChannel(id: number, model: string): Promise<ChannelTestResult> {
  const answer = await rawCall('GET', withQuery(`/api/channel/test/${id}`, { model }));
  const { success, message, time } = answer.payload;
  if (typeof time !== 'number') throw failure(answer);
  return { success: success === true, message: typeof message === 'string' ? message : '', time };
}

export function useTestChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, model }: { id: number; model: string }) => testChannel(id, model),
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.rows }),
    meta: { silentError: true },
  });
}

/** `GET /api/channel/update_balance/:id` answers `{success, message, balance}`. */
export function useUpdateBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const answer = await rawCall('GET', `/api/channel/update_balance/${id}`);
      if (answer.payload.success !== true || typeof answer.payload.balance !== 'number') throw failure(answer);
      return answer.payload.balance;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.rows }),
  });
}

// ---- writes ----

function useInvalidateRows() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: channelKeys.rows }),
      queryClient.invalidateQueries({ queryKey: channelKeys.tags }),
    ]);
}

export type SaveChannelRequest =
  | { kind: 'create'; body: CreateChannelBody }
  | { kind: 'update'; body: UpdateChannelBody }
  | { kind: 'tag'; tag: string; body: UpdateChannelTagBody };

/** Create (one channel per key line), edit, or edit every channel of a tag. Errors are shown on the form. */
export function useSaveChannel() {
  const invalidate = useInvalidateRows();
  return useMutation({
    mutationFn: (request: SaveChannelRequest): Promise<unknown> => {
      if (request.kind === 'create') return api.post<ChannelView[]>('/api/channel/', request.body);
      if (request.kind === 'update') return api.put<ChannelView>('/api/channel/', request.body);
      return api.put(`/api/channel_tag/${encodeURIComponent(request.tag)}`, request.body);
    },
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** A partial `PUT /api/channel/` (no models): status, priority or weight. */
export function usePatchChannel() {
  const invalidate = useInvalidateRows();
  return useMutation({
    mutationFn: (body: { id: number; status?: number; priority?: number; weight?: number }) =>
      api.put<ChannelView>('/api/channel/', body),
    onSettled: invalidate,
  });
}

export function useDeleteChannel() {
  const invalidate = useInvalidateRows();
  return useMutation({ mutationFn: (id: number) => api.delete(`/api/channel/${id}`), onSuccess: invalidate });
}

export function useClearChannelTag() {
  const invalidate = useInvalidateRows();
  return useMutation({ mutationFn: (id: number) => api.delete(`/api/channel/${id}/tag`), onSuccess: invalidate });
}

/** `DELETE /api/channel/batch` with `{ids}` in the body; answers how many were deleted. */
export function useDeleteChannels() {
  const invalidate = useInvalidateRows();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      const answer = await rawCall('DELETE', '/api/channel/batch', { ids });
      if (answer.payload.success !== true) throw failure(answer);
      return Number(answer.payload.data ?? 0);
    },
    onSuccess: invalidate,
  });
}

export function useDeleteDisabledChannels() {
  const invalidate = useInvalidateRows();
  return useMutation({ mutationFn: () => api.delete<number>('/api/channel/disabled'), onSuccess: invalidate });
}

/** The batch edits that take `{ids, value}`: the Azure API version, or a model to remove. */
export function useBatchEdit() {
  const invalidate = useInvalidateRows();
  return useMutation({
    mutationFn: ({ kind, ids, value }: { kind: 'azure_api' | 'del_model'; ids: number[]; value: string }) =>
      api.put<number>(`/api/channel/batch/${kind}`, { ids, value }),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

export function useUpdateAllBalances() {
  const invalidate = useInvalidateRows();
  return useMutation({ mutationFn: () => api.get<unknown>('/api/channel/update_balance'), onSettled: invalidate });
}

export type TagAction =
  | { kind: 'priority'; value: number }
  | { kind: 'enable' }
  | { kind: 'disable' }
  | { kind: 'deleteDisabled' }
  | { kind: 'delete' };

export function useTagAction() {
  const invalidate = useInvalidateRows();
  return useMutation({
    mutationFn: ({ tag, action }: { tag: string; action: TagAction }) => {
      const path = `/api/channel_tag/${encodeURIComponent(tag)}`;
      switch (action.kind) {
        case 'priority':
          return api.put<number>(`${path}/priority`, { type: 'priority', value: action.value });
        case 'enable':
        case 'disable':
          return api.put<number>(`${path}/status/${action.kind}`);
        case 'deleteDisabled':
          return api.delete<number>(`${path}/disabled`);
        case 'delete':
          return api.delete<number>(path);
      }
    },
    onSettled: invalidate,
  });
}

/** `POST /api/channel/provider_models_list`: the upstream account's models, for the form. */
export function useProviderModels() {
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => api.post<string[]>('/api/channel/provider_models_list', body),
    meta: { silentError: true },
  });
}

// ---- testing every channel ----

export interface TestAllProgress {
  running: boolean;
  done: number;
  total: number;
  failed: number;
}

/** `GET /api/channel/test/status`, polled every second while a run is going. */
export function useTestAllProgress() {
  return useQuery({
    queryKey: channelKeys.testStatus,
    queryFn: () => api.get<TestAllProgress>('/api/channel/test/status'),
    refetchInterval: (query) => (query.state.data?.running ? 1000 : false),
    meta: { silentError: true },
  });
}

export function useStartTestAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.get<number>('/api/channel/test'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.testStatus }),
  });
}
