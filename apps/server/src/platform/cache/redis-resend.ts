import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';

const load = createRequire(import.meta.url);

/** Pauses before each repeated try: about 3 s in all, past a failover or a restart of Redis. */
const PAUSES_MS = [50, 250, 1000, 2000];

/**
 * Runs a Redis command that is safe to run twice (it recognises itself by an id it carries) and,
 * when its reply is lost (a dropped connection, ioredis out of retries), sends it again as it was:
 * Redis may have run it, and the repeat then answers what that run did. An error Redis itself
 * replied (a script's error) is not repeated.
 */
export async function sentUntilAnswered<T>(
  send: () => Promise<T>,
  pausesMs: readonly number[] = PAUSES_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const pause = pausesMs[attempt];
      if (pause === undefined || isReplyError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function isReplyError(error: unknown): boolean {
  const { ReplyError } = load('ioredis') as typeof IoRedis;
  return error instanceof ReplyError;
}
