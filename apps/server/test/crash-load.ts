/**
 * A load of chat completions, streamed and not, that ends with a crash: after a chosen number of
 * answers the client saw succeed, `crash` is called (the test SIGKILLs the server there) and no
 * further request is started. What the client saw is recorded, to compare with the books after a
 * restart.
 */

/** mulberry32: a small seeded generator, so a failing run can be repeated from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface CrashLoadPlan {
  url: string;
  key: string;
  model: string;
  /** Requests at most; the crash normally stops the load well before. */
  total: number;
  concurrency: number;
  /** One entry per request: whether it asks for a stream. */
  streams: boolean[];
  /** The crash comes right after this many requests were seen to succeed. */
  crashAfterSuccesses: number;
  crash: () => void;
}

export interface CrashLoadOutcome {
  /** Requests started (sent, or at least attempted). */
  sent: number;
  /** Request ids (X-Request-Id) of the answers the client saw complete and succeed. */
  succeeded: string[];
  /** Succeeded answers that carried no request id (there should be none). */
  succeededWithoutId: number;
  /** Complete answers that were not a success, e.g. `429: {...}` (there should be none). */
  refused: string[];
  /** Requests that failed without an answer before the crash (there should be none). */
  errorsBeforeCrash: string[];
  /** Requests cut by the crash: no complete answer. */
  cut: number;
}

/**
 * Success as a client sees it: non-stream, a 200 with a complete chat completion; stream, a 200
 * whose body ended normally and carried the final `data: [DONE]`. A body cut by the crash makes
 * `text()` reject, so a half-received answer never counts.
 */
async function chat(plan: CrashLoadPlan, index: number): Promise<{ ok: boolean; id: string | null; seen: string }> {
  const stream = plan.streams[index] === true;
  const response = await fetch(`${plan.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${plan.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: plan.model,
      stream,
      messages: [{ role: 'user', content: `request ${index}` }],
    }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  const id = response.headers.get('x-request-id');
  if (response.status !== 200) return { ok: false, id, seen: `${response.status}: ${text.slice(0, 200)}` };
  if (stream) return { ok: text.includes('data: [DONE]'), id, seen: `stream without [DONE]: ${text.slice(-200)}` };
  const answer = JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown } }> };
  return { ok: typeof answer.choices?.[0]?.message?.content === 'string', id, seen: `200: ${text.slice(0, 200)}` };
}

export async function runCrashLoad(plan: CrashLoadPlan): Promise<CrashLoadOutcome> {
  const outcome: CrashLoadOutcome = {
    sent: 0,
    succeeded: [],
    succeededWithoutId: 0,
    refused: [],
    errorsBeforeCrash: [],
    cut: 0,
  };
  let crashed = false;
  const worker = async () => {
    while (!crashed && outcome.sent < plan.total) {
      const index = outcome.sent++;
      try {
        const answer = await chat(plan, index);
        if (!answer.ok) {
          outcome.refused.push(answer.seen);
          continue;
        }
        if (answer.id) outcome.succeeded.push(answer.id);
        else outcome.succeededWithoutId++;
        if (!crashed && outcome.succeeded.length + outcome.succeededWithoutId >= plan.crashAfterSuccesses) {
          crashed = true;
          plan.crash();
        }
      } catch (error) {
        if (crashed) outcome.cut++;
        else outcome.errorsBeforeCrash.push(String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  return outcome;
}
