import type {
  CreateOwnedByBody,
  ModelInfoBody,
  ModelInfoView,
  MultiplePricesBody,
  OwnedByView,
  PriceBody,
  PriceView,
  ProviderView,
  SyncPricesResult,
  UnpricedModelView,
  UpdateOwnedByBody,
} from '@one-hub/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { ApplyMode } from './priceCheck.js';

export const pricingKeys = {
  all: ['pricing'] as const,
  prices: ['pricing', 'prices'] as const,
  defaults: ['pricing', 'defaults'] as const,
  updateService: ['pricing', 'updateService'] as const,
  servicePrices: ['pricing', 'updateService', 'prices'] as const,
  modelList: ['pricing', 'modelList'] as const,
  unpriced: ['pricing', 'unpriced'] as const,
  providers: ['pricing', 'providers'] as const,
  owners: ['pricing', 'owners'] as const,
  infos: ['pricing', 'infos'] as const,
};

/** Also shown by other screens (owner names and icons); refreshed when owners change. */
const ownedByKey = ['site', 'ownedBy'] as const;

/** `GET /api/prices`: every stored price, by channel type then model. */
export function usePrices() {
  return useQuery({
    queryKey: pricingKeys.prices,
    queryFn: () => api.get<PriceView[]>('/api/prices'),
    meta: { silentError: true },
  });
}

/** `GET /api/prices/updateService`: the price update service's address ('' when none is set). */
export function useUpdateServiceUrl() {
  return useQuery({
    queryKey: pricingKeys.updateService,
    queryFn: () => api.get<string>('/api/prices/updateService'),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silentError: true },
  });
}

/** `GET /api/prices/updateService/prices`: the service's list as the server fetched it just now. */
export function useServicePrices(enabled: boolean) {
  return useQuery({
    queryKey: pricingKeys.servicePrices,
    queryFn: () => api.get<PriceBody[]>('/api/prices/updateService/prices'),
    enabled,
    staleTime: 0,
    retry: false,
    meta: { silentError: true },
  });
}

/** `GET /api/prices?type=default`: the built-in list, the default source of the update check. */
export function useDefaultPrices(enabled: boolean) {
  return useQuery({
    queryKey: pricingKeys.defaults,
    queryFn: () => api.get<PriceView[]>('/api/prices?type=default'),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
    meta: { silentError: true },
  });
}

/** `GET /api/prices/model_list`: priced models and every model a channel offers (suggestions). */
export function useModelList() {
  return useQuery({
    queryKey: pricingKeys.modelList,
    queryFn: () => api.get<string[]>('/api/prices/model_list'),
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

/**
 * `GET /api/prices/unpriced`: models enabled channels bill that no price covers, with their
 * channels. Price edits here refresh it; channel edits show when the screen is opened again.
 */
export function useUnpricedModels() {
  return useQuery({
    queryKey: pricingKeys.unpriced,
    queryFn: () => api.get<UnpricedModelView[]>('/api/prices/unpriced'),
    meta: { silentError: true },
  });
}

/** `GET /api/providers`: the channel types and their names. */
export function useProviders() {
  return useQuery({
    queryKey: pricingKeys.providers,
    queryFn: () => api.get<ProviderView[]>('/api/providers'),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silentError: true },
  });
}

/** `GET /api/ownedby`: built-in and custom owners by id. */
export function useOwnedBy() {
  return useQuery({
    queryKey: ownedByKey,
    queryFn: () => api.get<Record<string, OwnedByView>>('/api/ownedby'),
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

/** `GET /api/model_info/`: every model-information entry. */
export function useModelInfos() {
  return useQuery({
    queryKey: pricingKeys.infos,
    queryFn: () => api.get<ModelInfoView[]>('/api/model_info/'),
    meta: { silentError: true },
  });
}

function useInvalidate(...keys: ReadonlyArray<readonly string[]>) {
  const queryClient = useQueryClient();
  return () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

const encodeModel = (model: string) => encodeURIComponent(model);

/** What a price change can alter: the list itself, the suggested names and which models lack a price. */
const priceKeys = [pricingKeys.prices, pricingKeys.modelList, pricingKeys.unpriced] as const;

/** Create (`original` null) or replace the price stored under `original`. Refusals are shown in the dialog. */
export function useSavePrice() {
  const invalidate = useInvalidate(...priceKeys);
  return useMutation({
    mutationFn: ({ original, body }: { original: string | null; body: PriceBody }) =>
      original === null
        ? api.post<PriceView>('/api/prices/single', body)
        : api.put<PriceView>(`/api/prices/single/${encodeModel(original)}`, body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

export function useDeletePrice() {
  const invalidate = useInvalidate(...priceKeys);
  return useMutation({
    mutationFn: (model: string) => api.delete<unknown>(`/api/prices/single/${encodeModel(model)}`),
    onSuccess: invalidate,
  });
}

export function useSaveMultiplePrices() {
  const invalidate = useInvalidate(...priceKeys);
  return useMutation({
    mutationFn: (body: MultiplePricesBody) => api.post<SyncPricesResult>('/api/prices/multiple', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

export function useDeletePrices() {
  const invalidate = useInvalidate(...priceKeys);
  return useMutation({
    mutationFn: (models: string[]) => api.put<{ deleted: number }>('/api/prices/multiple/delete', { models }),
    onSuccess: invalidate,
  });
}

/** `POST /api/prices/sync?updateMode=`: the server keeps locked prices whatever the mode. */
export function useSyncPrices() {
  const invalidate = useInvalidate(...priceKeys);
  return useMutation({
    mutationFn: ({ mode, prices }: { mode: ApplyMode; prices: PriceBody[] }) =>
      api.post<SyncPricesResult>(`/api/prices/sync?updateMode=${mode}`, prices),
    onSuccess: invalidate,
  });
}

export function useSaveOwner() {
  const invalidate = useInvalidate(ownedByKey);
  return useMutation({
    mutationFn: ({ editing, body }: { editing: boolean; body: CreateOwnedByBody | UpdateOwnedByBody }) =>
      editing ? api.put<OwnedByView>('/api/model_ownedby/', body) : api.post<OwnedByView>('/api/model_ownedby/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

export function useDeleteOwner() {
  const invalidate = useInvalidate(ownedByKey);
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/model_ownedby/${id}`),
    onSuccess: invalidate,
  });
}

export function useSaveModelInfo() {
  const invalidate = useInvalidate(pricingKeys.infos);
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ModelInfoBody }) =>
      id === null
        ? api.post<ModelInfoView>('/api/model_info/', body)
        : api.put<ModelInfoView>('/api/model_info/', { ...body, id }),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

export function useDeleteModelInfo() {
  const invalidate = useInvalidate(pricingKeys.infos);
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/model_info/${id}`),
    onSuccess: invalidate,
  });
}
