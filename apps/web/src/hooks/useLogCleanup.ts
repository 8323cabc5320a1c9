import { formatTimestamp } from '@one-hub/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, withQuery } from '../lib/api.js';

/**
 * Deleting old consume logs, offered both on the log screen and in the settings: the mutation and
 * the cut-off time being chosen.
 */

export const DAY_SECONDS = 24 * 3600;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const toInput = (seconds: number) => formatTimestamp(seconds).replace(' ', 'T');

/** `DELETE /api/log/?target_timestamp=`: removes consume logs older than the time; answers how many. */
export function useDeleteOldLogs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (targetTimestamp: number) =>
      api.delete<number>(withQuery('/api/log/', { target_timestamp: targetTimestamp })),
    // Every log list and statistic is read again (their keys all start with 'log').
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['log'] }),
    meta: { silentError: true },
  });
}

/**
 * The cut-off of a clean-up as a `datetime-local` input: 30 days ago at first, set by typing or by
 * an age (`setAge`, 0 for now), checked before use. `onChange` runs after every change.
 */
export function useCleanupCutoff(messages: { required: string; future: string }, onChange?: () => void) {
  const [value, setText] = useState(() => toInput(nowSeconds() - 30 * DAY_SECONDS));
  const [error, setError] = useState('');
  const target = value ? Math.floor(new Date(value).getTime() / 1000) : Number.NaN;
  const setValue = (text: string) => {
    setText(text);
    setError('');
    onChange?.();
  };
  return {
    value,
    error,
    /** Unix seconds of the cut-off; NaN while the input is empty or not a time. */
    target,
    setValue,
    setAge: (seconds: number) => setValue(toInput(nowSeconds() - seconds)),
    /** True when the cut-off may be used; otherwise shows why not. */
    check(): boolean {
      if (Number.isNaN(target)) setError(messages.required);
      else if (target > nowSeconds()) setError(messages.future);
      else return true;
      return false;
    },
  };
}
