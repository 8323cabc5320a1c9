import { isRecord } from '@one-hub/contracts';
import { readJson, removeItem, storageKeys, writeJson } from './storage.js';

/** What the console keeps about the signed-in user (the login answer, refreshed from `/api/user/self`). */
export interface SessionUser {
  id: number;
  username: string;
  display_name?: string;
  role: number;
  status?: number;
  avatar_url?: string;
}

function isSessionUser(value: unknown): value is SessionUser {
  return (
    isRecord(value) &&
    typeof value.id === 'number' &&
    typeof value.username === 'string' &&
    typeof value.role === 'number'
  );
}

export function readStoredUser(): SessionUser | null {
  return readJson(storageKeys.user, isSessionUser);
}

export function storeUser(user: SessionUser): void {
  writeJson(storageKeys.user, user);
}

export function clearStoredUser(): void {
  removeItem(storageKeys.user);
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Subscribes to "the server answered 401"; returns the unsubscribe function. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Set when a signed-in session ended on the server; the sign-in page says so once. */
let sessionEnded = false;

/** Whether the visitor was signed out because their session ended; answered once. */
export function takeSessionEnded(): boolean {
  const ended = sessionEnded;
  sessionEnded = false;
  return ended;
}

/** Called by the API client on any 401: the stored user goes, and the app state follows (spec §4). */
export function signalUnauthorized(): void {
  // A 401 for a visitor the console took as signed in: their session ended (expired, ended by a
  // password change or a reset, or signed out elsewhere), not a visitor who never signed in.
  if (readStoredUser() !== null) sessionEnded = true;
  clearStoredUser();
  for (const listener of unauthorizedListeners) listener();
}
