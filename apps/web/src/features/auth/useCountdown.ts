import { useCallback, useEffect, useState } from 'react';

/** Seconds left of a countdown that ticks once a second; `start(n)` (re)starts it, 0 means done. */
export function useCountdown(initialSeconds = 0): { seconds: number; start(seconds: number): void } {
  const [seconds, setSeconds] = useState(initialSeconds);

  useEffect(() => {
    if (seconds <= 0) return;
    const timer = window.setTimeout(() => setSeconds((left) => Math.max(left - 1, 0)), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds]);

  const start = useCallback((value: number) => setSeconds(Math.max(Math.round(value), 0)), []);
  return { seconds, start };
}
