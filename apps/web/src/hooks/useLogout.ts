import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../lib/api.js';
import { forgetSignInPassword } from '../lib/signInPassword.js';
import { useSession } from './useSession.js';

/**
 * Signs out; whatever the server says, the local session is cleared and the browser goes to "/"
 * (spec §4). Both happen here rather than in the caller's `mutate` callbacks: clearing the user
 * unmounts the console (and the caller with it), and an unmounted caller's callbacks never run.
 */
export function useLogout() {
  const { logout } = useSession();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.post<unknown>('/api/user/logout'),
    onSettled: () => {
      // Synchronously, not as a transition: a transition would keep the console mounted while the
      // home page loads, and its sign-in guard would then send the cleared session to /login.
      void navigate('/', { replace: true, flushSync: true });
      forgetSignInPassword();
      logout();
    },
    meta: { silentError: true },
  });
}
