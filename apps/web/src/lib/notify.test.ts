import { describe, expect, it, vi } from 'vitest';

// notify.ts reaches the i18n instance; these tests only need errorToast, with a fake translator.
vi.mock('../i18n/index.js', () => ({ i18n: { t: (key: string) => key } }));
vi.mock('notistack', () => ({ enqueueSnackbar: vi.fn(), closeSnackbar: vi.fn() }));

const { ApiError } = await import('./api.js');
const { errorToast, toastDurations } = await import('./notify.js');

const t = (key: string, values?: Record<string, string>) => (values ? `${key}(${values.message})` : key);

describe('error toasts (spec §8)', () => {
  it('uses fixed texts for 429 and 500 and an info toast for 405', () => {
    expect(errorToast(new ApiError(429, 'slow down'), t)).toEqual({
      variant: 'error',
      message: 'common:error.tooManyRequests',
    });
    expect(errorToast(new ApiError(500, 'boom'), t)).toEqual({
      variant: 'error',
      message: 'common:error.serverInternal',
    });
    expect(errorToast(new ApiError(405, 'nope'), t)).toEqual({ variant: 'info', message: 'common:error.demoSite' });
  });

  it('puts the prefix before the body message of other HTTP errors, and before other errors’ text', () => {
    expect(errorToast(new ApiError(400, 'name is required'), t).message).toBe(
      'common:error.withPrefix(name is required)',
    );
    expect(errorToast(new Error('socket hang up'), t).message).toBe('common:error.withPrefix(socket hang up)');
    expect(errorToast('plain text', t).message).toBe('common:error.withPrefix(plain text)');
  });

  it('keeps the spec durations', () => {
    expect(toastDurations).toEqual({
      error: 5000,
      warning: 10000,
      success: 1500,
      info: 3000,
      notice: 20000,
      default: 5000,
    });
  });
});
