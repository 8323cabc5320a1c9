import { useRef } from 'react';

/** The last non-null value, so a closing dialog keeps showing what it showed while it fades out. */
export function useLastShown<T>(value: T | null): T | null {
  const last = useRef(value);
  if (value !== null) last.current = value;
  return last.current;
}
