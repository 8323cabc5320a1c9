/**
 * The timer loop the master-node jobs share: `pass` runs `intervalMs` after the start and then
 * `intervalMs` after each pass ends (never two at once, however long a pass takes). A failed pass
 * goes to `onError` and the loop goes on. The timer never keeps the process alive on its own.
 */
export interface Repeating {
  /** Stops scheduling and resolves once the pass the timer started, if any, has ended. */
  cancel(): Promise<void>;
}

export function repeatEvery(
  intervalMs: number,
  pass: () => Promise<unknown>,
  onError: (error: unknown) => void,
): Repeating {
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const schedule = (): void => {
    if (cancelled) return;
    timer = setTimeout(() => {
      running = pass()
        .then(() => undefined, onError)
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();

  return {
    cancel() {
      cancelled = true;
      clearTimeout(timer);
      return running;
    },
  };
}
