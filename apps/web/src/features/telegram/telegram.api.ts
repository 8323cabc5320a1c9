import type { Paged, TelegramBotStatus, TelegramMenuBody, TelegramMenuView } from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';

/** What the menu list asks for; every field lives in the URL (see useTelegramListParams). */
export interface TelegramListParams {
  /** An id, or the start of a command. */
  keyword: string;
  order: string;
  page: number;
  size: number;
}

export const telegramKeys = {
  all: ['telegram'] as const,
  menus: ['telegram', 'menus'] as const,
  list: (params: TelegramListParams) => ['telegram', 'menus', params] as const,
  status: ['telegram', 'status'] as const,
};

/** `GET /api/option/telegram/`: the custom commands, filtered, ordered and paged by the server. */
export function useTelegramMenus(params: TelegramListParams) {
  return useQuery({
    queryKey: telegramKeys.list(params),
    queryFn: () => api.get<Paged<TelegramMenuView>>(withQuery('/api/option/telegram/', { ...params })),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/option/telegram/status`: whether the bot runs, and by webhook or by polling. */
export function useTelegramStatus() {
  return useQuery({
    queryKey: telegramKeys.status,
    queryFn: () => api.get<TelegramBotStatus>('/api/option/telegram/status'),
  });
}

/** `POST /api/option/telegram/`: creates (no id) or updates a command; the dialog shows refusals. */
export function useSaveTelegramMenu() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TelegramMenuBody) => api.post<TelegramMenuView>('/api/option/telegram/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: telegramKeys.menus }),
    meta: { silentError: true },
  });
}

/** `DELETE /api/option/telegram/:id`. */
export function useDeleteTelegramMenu() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/option/telegram/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: telegramKeys.menus }),
    meta: { silentError: true },
  });
}

/** `PUT /api/option/telegram/reload`: publishes the command list again; answers the server's message. */
export function useReloadTelegram() {
  return useMutation({
    mutationFn: async () => {
      const answer = await api.put<unknown>('/api/option/telegram/reload');
      return typeof answer === 'string' ? answer : '';
    },
  });
}
