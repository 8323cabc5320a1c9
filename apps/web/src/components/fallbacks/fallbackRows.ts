import { type FallbackMap, fallbackCycle, fallbackMapSchema, MAX_FALLBACKS_PER_MODEL } from '@one-hub/contracts';

/**
 * One model of the fallbacks editor as its inputs hold it: the requested model, and the models
 * tried after it, comma-separated in the order they are tried.
 */
export interface FallbackRow {
  model: string;
  fallbacks: string;
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

const listOf = (text: string) =>
  text
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean);

export function fallbacksToRows(map: FallbackMap | null | undefined): FallbackRow[] {
  return Object.entries(map ?? {}).map(([model, list]) => ({ model, fallbacks: list.join(', ') }));
}

/** The map the rows stand for, before validation; a row left wholly empty is dropped. */
export function rowsToFallbacks(rows: readonly FallbackRow[]): FallbackMap {
  const map: FallbackMap = {};
  for (const row of rows) {
    const model = row.model.trim();
    if (model === '' && listOf(row.fallbacks).length === 0) continue;
    map[model] = [...(map[model] ?? []), ...listOf(row.fallbacks)];
  }
  return map;
}

/** The first problem of one row, in the console's words; undefined when the row is fine on its own. */
function rowProblem(row: FallbackRow, rows: readonly FallbackRow[], index: number, t: Translate) {
  const model = row.model.trim();
  const list = listOf(row.fallbacks);
  if (model === '' && list.length === 0) return undefined;
  if (model === '') return { field: 'model', message: t('fallback:errors.modelRequired') };
  if (rows.findIndex((other) => other.model.trim() === model) < index) {
    return { field: 'model', message: t('fallback:errors.modelTwice') };
  }
  if (list.length === 0) return { field: 'fallbacks', message: t('fallback:errors.listRequired') };
  if (list.length > MAX_FALLBACKS_PER_MODEL) {
    return { field: 'fallbacks', message: t('fallback:errors.tooMany', { max: MAX_FALLBACKS_PER_MODEL }) };
  }
  if (list.includes(model)) return { field: 'fallbacks', message: t('fallback:errors.self') };
  if (new Set(list).size !== list.length) return { field: 'fallbacks', message: t('fallback:errors.twice') };
  return undefined;
}

/**
 * Checks the rows as the contracts' `fallbackMapSchema` does and gives each problem's translated
 * message under `<name>.<row>.model`, `<name>.<row>.fallbacks` or `<name>` (what names no row).
 */
export function checkFallbackRows(
  rows: readonly FallbackRow[],
  t: Translate,
  name = 'fallbacks',
): { fallbacks: FallbackMap | null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  rows.forEach((row, index) => {
    const problem = rowProblem(row, rows, index, t);
    if (problem) errors[`${name}.${index}.${problem.field}`] = problem.message;
  });
  const map = rowsToFallbacks(rows);
  if (Object.keys(errors).length === 0) {
    const cycle = fallbackCycle(map);
    const at = cycle ? rows.findIndex((row) => row.model.trim() === cycle[0]) : -1;
    if (cycle)
      errors[`${name}.${Math.max(0, at)}.fallbacks`] = t('fallback:errors.cycle', { cycle: cycle.join(' → ') });
    else if (!fallbackMapSchema.safeParse(map).success) errors[name] = t('fallback:errors.tooLong');
  }
  return { fallbacks: Object.keys(errors).length === 0 ? map : null, errors };
}

/** Whether a path of a body's schema issue lies inside a fallback map (those are reported by `checkFallbackRows`). */
export function isFallbackPath(path: ReadonlyArray<PropertyKey>): boolean {
  return path.includes('fallbacks');
}
