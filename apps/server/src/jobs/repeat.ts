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

/** A job's pass, run by the timer or on demand; a call while a pass is under way joins it. */
export interface RepeatedPass<Result> {
  runNow(): Promise<Result>;
  /** The pass under way, if any (a job's stop waits for it). */
  current(): Promise<Result> | undefined;
  /** Stops the timer, as Repeating.cancel does. */
  cancel(): Promise<void>;
}

export function repeatPass<Result>(
  intervalMs: number,
  pass: () => Promise<Result>,
  onError: (error: unknown) => void,
): RepeatedPass<Result> {
  let running: Promise<Result> | undefined;
  const runNow = (): Promise<Result> => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = repeatEvery(intervalMs, runNow, onError);
  return { runNow, current: () => running, cancel: () => timer.cancel() };
}
