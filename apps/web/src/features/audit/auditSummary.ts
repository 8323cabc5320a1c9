import type { AuditChanges, AuditFieldChange } from '@one-hub/contracts';

/** How many fields the one-line summary names before "+N". */
const SUMMARY_FIELDS = 3;
const VALUE_LENGTH = 40;

/** A value as one short line: text as it is ('""' when empty), anything else as JSON, cut at 40 characters. */
export function valueText(value: unknown): string {
  const text = typeof value === 'string' ? (value === '' ? '""' : value) : JSON.stringify(value ?? null);
  return text.length > VALUE_LENGTH ? `${text.slice(0, VALUE_LENGTH - 1)}…` : text;
}

/** One field's change: "priority: 0 → 5", "key: changed" for a secret, the one value of a creation or deletion. */
export function fieldSummary(field: string, change: AuditFieldChange, changedWord: string): string {
  if (change.secret) return `${field}: ${changedWord}`;
  const hasBefore = 'before' in change;
  const hasAfter = 'after' in change;
  if (hasBefore && hasAfter) return `${field}: ${valueText(change.before)} → ${valueText(change.after)}`;
  return `${field}: ${valueText(hasAfter ? change.after : change.before)}`;
}

/** The changes on one line, the first few fields named and the rest counted: "priority: 0 → 5, key: changed +2". */
export function changesSummary(changes: AuditChanges, changedWord: string): { text: string; more: number } {
  const entries = Object.entries(changes);
  const text = entries
    .slice(0, SUMMARY_FIELDS)
    .map(([field, change]) => fieldSummary(field, change, changedWord))
    .join(', ');
  return { text, more: Math.max(0, entries.length - SUMMARY_FIELDS) };
}
