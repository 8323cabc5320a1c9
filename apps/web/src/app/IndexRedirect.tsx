import { Navigate } from 'react-router';
import { readStoredUser } from '../features/auth/userStorage.js';

export function IndexRedirect() {
  return <Navigate to={readStoredUser() ? '/panel' : '/login'} replace />;
}
