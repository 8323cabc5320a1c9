import type { LoginBody, LoginUserView, RegisterBody, UserView } from '@one-hub/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { clearStoredUser, storeUser } from './userStorage.js';

export const userQueryKeys = {
  all: ['user'] as const,
  self: ['user', 'self'] as const,
};

export function useSelf() {
  return useQuery({
    queryKey: userQueryKeys.self,
    queryFn: () => api.get<UserView>('/api/user/self'),
    staleTime: 30_000,
  });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => api.post<LoginUserView>('/api/user/login', body),
    onSuccess: (user) => {
      storeUser(user);
      queryClient.removeQueries({ queryKey: userQueryKeys.all });
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.get<unknown>('/api/user/logout'),
    onSettled: () => {
      clearStoredUser();
      queryClient.removeQueries({ queryKey: userQueryKeys.all });
    },
  });
}

/** Creates an account; it does not sign in. */
export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) => api.post<LoginUserView>('/api/user/register', body),
  });
}
