import type { AuditChanges } from '@one-hub/contracts';

type Fields = Readonly<Record<string, unknown>>;

export interface ChangeOptions {
  /** Fields whose values are never kept: a change is recorded as `{secret: true}`. */
  secret?: readonly string[];
  /** Fields left out (bookkeeping such as timestamps, counters the change did not make). */
  ignore?: readonly string[];
}

function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  return JSON.stringify(left) === JSON.stringify(right);
}

/**
 * The fields that differ between `before` and `after` (either absent for a creation or a deletion),
 * with both values; secrets as `{secret: true}`. Pass both sides in the same shape (as presented, or
 * as stored), or every field looks changed.
 */
export function changedFields(before: Fields | undefined, after: Fields | undefined, options: ChangeOptions = {}) {
  const secret = new Set(options.secret ?? []);
  const ignore = new Set(options.ignore ?? []);
  const changes: AuditChanges = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of names) {
    if (ignore.has(name)) continue;
    const had = before !== undefined && name in before;
    const has = after !== undefined && name in after;
    const oldValue = had ? before[name] : undefined;
    const newValue = has ? after[name] : undefined;
    if (had && has && sameValue(oldValue, newValue)) continue;
    if (secret.has(name)) {
      // An empty secret on both sides of a creation or deletion is no secret worth naming.
      if (!oldValue && !newValue) continue;
      changes[name] = { secret: true };
      continue;
    }
    const change: AuditChanges[string] = {};
    if (had) change.before = oldValue;
    if (has) change.after = newValue;
    changes[name] = change;
  }
  return changes;
}
