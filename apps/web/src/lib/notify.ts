import { closeSnackbar, enqueueSnackbar, type OptionsObject, type SnackbarKey, type VariantType } from 'notistack';
import type { ReactNode } from 'react';
import { i18n } from '../i18n/index.js';
import { ApiError } from './api.js';

/** How long each kind of toast stays (spec §9). Copy-failure toasts stay until dismissed. */
export const toastDurations = {
  error: 5000,
  warning: 10000,
  success: 1500,
  info: 3000,
  notice: 20000,
  default: 5000,
} as const;

/** The provider's settings (spec §4, §9): 3 at once, the oldest goes, duplicates are dropped. */
export const MAX_TOASTS = 3;
/** At this width or less, toasts sit at the bottom centre instead of the top centre. */
export const SMALL_SCREEN_TOAST_QUERY = '(max-width:600px)';

function show(message: ReactNode, variant: VariantType, options: OptionsObject = {}): SnackbarKey {
  return enqueueSnackbar(message, { variant, autoHideDuration: toastDurations[variant], ...options });
}

export const notify = {
  success: (message: ReactNode) => show(message, 'success'),
  info: (message: ReactNode) => show(message, 'info'),
  warning: (message: ReactNode) => show(message, 'warning'),
  error: (message: ReactNode) => show(message, 'error'),
  /** Announcements: an info toast that stays for 20 s. */
  notice: (message: ReactNode) => show(message, 'info', { autoHideDuration: toastDurations.notice }),
  /** A toast that stays until the user dismisses it. */
  persistent: (message: ReactNode, variant: VariantType = 'default', key?: SnackbarKey) =>
    show(message, variant, { persist: true, ...(key === undefined ? {} : { key }) }),
  dismiss: (key?: SnackbarKey) => closeSnackbar(key),
};

type Translate = (key: string, values?: Record<string, string>) => string;

/**
 * The error toast of spec §8, as data: HTTP errors show the body's message after the prefix,
 * 429 and 500 fixed texts, 405 an info toast (the demo site), anything else the prefix plus its text.
 */
export function errorToast(error: unknown, t: Translate): { variant: 'error' | 'info'; message: string } {
  if (error instanceof ApiError) {
    if (error.status === 405) return { variant: 'info', message: t('common:error.demoSite') };
    if (error.status === 429) return { variant: 'error', message: t('common:error.tooManyRequests') };
    if (error.status === 500) return { variant: 'error', message: t('common:error.serverInternal') };
  }
  let text = t('common:error.unknown');
  if (error instanceof Error && error.message) text = error.message;
  else if (typeof error === 'string' && error) text = error;
  return { variant: 'error', message: t('common:error.withPrefix', { message: text }) };
}

const translate: Translate = (key, values) => i18n.t(key, values ?? {});

/** The §8 text for an error, for inline display (an Alert in a form). */
export function describeError(error: unknown): string {
  return errorToast(error, translate).message;
}

/** Shows the §8 error toast for any thrown value (ApiError, Error or string). */
export function showError(error: unknown): void {
  const { variant, message } = errorToast(error, translate);
  notify[variant](message);
}
