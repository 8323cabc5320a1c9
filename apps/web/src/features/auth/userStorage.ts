import type { LoginUserView } from '@one-hub/contracts';
import { isRecord, readJson, removeItem, storageKeys, writeJson } from '../../lib/storage.js';

function isLoginUser(value: unknown): value is LoginUserView {
  return isRecord(value) && typeof value.username === 'string' && typeof value.id === 'number';
}

export function readStoredUser(): LoginUserView | null {
  return readJson(storageKeys.user, isLoginUser);
}

export function storeUser(user: LoginUserView): void {
  writeJson(storageKeys.user, user);
}

export function clearStoredUser(): void {
  removeItem(storageKeys.user);
}
