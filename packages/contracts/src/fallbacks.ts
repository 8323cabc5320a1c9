import { z } from 'zod';

/**
 * Model fallbacks (issue 34): on an API key (`setting.fallbacks`) and a user group (`fallbacks`),
 * `{model: [fallback, …]}`. When every channel of the requested model has failed, or none can
 * take it, the fallbacks are tried in order; the key's list wins for a model it names. Unknown
 * model names are accepted (a channel may list them later); a list naming its own model, a
 * model twice, or a cycle through other entries is refused.
 */
export const MAX_FALLBACKS_PER_MODEL = 5;
/** The most models one map may give fallbacks for. */
export const MAX_FALLBACK_MODELS = 50;

/** The stored text's length limit (a group's `fallbacks` column is varchar(4096)). */
export const MAX_FALLBACKS_TEXT = 4096;

export type FallbackMap = Record<string, string[]>;

const modelName = (field: string) =>
  z
    .string(`${field} must be a model name`)
    .trim()
    .min(1, `${field} must not be empty`)
    .max(200, `${field} must be at most 200 characters`);

/** The first cycle through the map (`a → b → a`) as a list of models, if any. */
export function fallbackCycle(map: FallbackMap): string[] | undefined {
  const done = new Set<string>();
  const visit = (model: string, path: string[]): string[] | undefined => {
    const at = path.indexOf(model);
    if (at >= 0) return [...path.slice(at), model];
    if (done.has(model)) return undefined;
    for (const next of map[model] ?? []) {
      const cycle = visit(next, [...path, model]);
      if (cycle) return cycle;
    }
    done.add(model);
    return undefined;
  };
  for (const model of Object.keys(map)) {
    const cycle = visit(model, []);
    if (cycle) return cycle;
  }
  return undefined;
}

function checkEntries(map: FallbackMap, context: z.core.$RefinementCtx<FallbackMap>): void {
  for (const [model, list] of Object.entries(map)) {
    if (model.trim() === '') context.addIssue({ code: 'custom', path: [model], message: 'a model name is required' });
    if (list.includes(model)) {
      context.addIssue({ code: 'custom', path: [model], message: `${model} cannot be its own fallback` });
    }
    const twice = list.find((entry, index) => list.indexOf(entry) !== index);
    if (twice) context.addIssue({ code: 'custom', path: [model], message: `${model} lists ${twice} twice` });
  }
  const cycle = fallbackCycle(map);
  if (cycle && cycle.length > 2) {
    context.addIssue({
      code: 'custom',
      path: [cycle[0] ?? ''],
      message: `fallbacks form a cycle: ${cycle.join(' → ')}`,
    });
  }
}

/** A fallback map as written by the console or the API; `null` (or absent) is the empty map. */
export const fallbackMapSchema = z
  .record(
    z.string(),
    z
      .array(modelName('a fallback'), 'the fallbacks of a model must be a list of model names')
      .min(1, 'list at least one fallback, or remove the model')
      .max(MAX_FALLBACKS_PER_MODEL, `a model may have at most ${MAX_FALLBACKS_PER_MODEL} fallbacks`),
    'fallbacks must be an object of model → list of models',
  )
  .nullish()
  .transform((map) => map ?? {})
  .refine((map) => Object.keys(map).length <= MAX_FALLBACK_MODELS, {
    error: `fallbacks may name at most ${MAX_FALLBACK_MODELS} models`,
  })
  .refine((map) => JSON.stringify(map).length <= MAX_FALLBACKS_TEXT, {
    error: `fallbacks are too long: at most ${MAX_FALLBACKS_TEXT} characters as JSON`,
  })
  .superRefine(checkEntries);

/** Reads a stored map leniently: anything unreadable is no fallback rather than a failed request. */
export function parseStoredFallbacks(value: unknown): FallbackMap {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = value === '' ? {} : JSON.parse(value);
    } catch {
      return {};
    }
  }
  const result = fallbackMapSchema.safeParse(parsed);
  return result.success ? result.data : {};
}
