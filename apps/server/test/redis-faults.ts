import type { Redis } from 'ioredis';

/**
 * Faults of a connection to Redis, played on a real client for the scripts named: Redis runs the
 * command, and its reply is lost. ioredis then either sends the command again after reconnecting
 * (`resend`: the caller gets the second run's reply) or rejects it (`fail`: the caller gets an
 * error although Redis ran it). `hold` keeps a reply back until the test lets it go, so the test can
 * act while the command is in flight (Redis has run it; its caller has not heard yet).
 */
export interface RedisFaults {
  /** The next `times` calls of `script` are run twice; their callers get the second reply. */
  resend(script: string, times?: number): void;
  /** The next call of `script` runs, then its caller gets an error. */
  fail(script: string): void;
  /** The next call of `script` runs; its reply waits for `release`. `ran` resolves once Redis ran it. */
  hold(script: string): { ran: Promise<void>; release: () => void };
  /** Calls of `script` made so far, with their arguments after the script. */
  calls(script: string): unknown[][];
  /** Resolves once every call made so far has answered (or failed). */
  idle(): Promise<void>;
}

type Eval = (script: string, ...args: unknown[]) => Promise<unknown>;

export function injectFaults(client: Redis): RedisFaults {
  const original = client.eval.bind(client) as unknown as Eval;
  const resends = new Map<string, number>();
  const failures = new Set<string>();
  const holds = new Map<string, { ran: () => void; released: Promise<void> }>();
  const log = new Map<string, unknown[][]>();
  const running = new Set<Promise<unknown>>();
  const faulty: Eval = (script, ...args) => {
    const call = run(script, ...args);
    running.add(call);
    const forget = () => running.delete(call);
    call.then(forget, forget);
    return call;
  };
  const run: Eval = async (script, ...args) => {
    log.set(script, [...(log.get(script) ?? []), args]);
    const first = await original(script, ...args);
    const resend = resends.get(script) ?? 0;
    if (resend > 0) {
      resends.set(script, resend - 1);
      return original(script, ...args);
    }
    if (failures.delete(script)) throw new Error('Connection is closed.');
    const held = holds.get(script);
    if (held) {
      holds.delete(script);
      held.ran();
      await held.released;
    }
    return first;
  };
  (client as unknown as { eval: Eval }).eval = faulty;
  return {
    resend(script, times = 1) {
      resends.set(script, times);
    },
    fail(script) {
      failures.add(script);
    },
    hold(script) {
      let ran = () => {};
      let release = () => {};
      const ranPromise = new Promise<void>((resolve) => {
        ran = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.set(script, { ran, released });
      return { ran: ranPromise, release };
    },
    calls(script) {
      return log.get(script) ?? [];
    },
    async idle() {
      await Promise.allSettled([...running]);
    },
  };
}
