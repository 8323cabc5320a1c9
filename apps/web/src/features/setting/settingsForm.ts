import {
  isSecretOptionKey,
  normaliseOptionValue,
  type OptionIssue,
  type OptionKey,
  optionDefinitions,
} from '@one-hub/contracts';
import type { OptionsSnapshot } from '../../lib/optionsSnapshot.js';

/**
 * Edits not saved yet, by key. For a secret, a key present means "write this", and an empty
 * string there means "clear it"; an absent key keeps the stored secret.
 */
export type Changes = Partial<Record<OptionKey, string>>;

/** A field's problem: a rule of the contract broken in the browser, or the server's refusal. */
export type FieldError = { issue: OptionIssue } | { server: string };

/** The stored value of a readable option (its default when the server did not list it). */
export function storedValue(snapshot: OptionsSnapshot, key: OptionKey): string {
  if (isSecretOptionKey(key)) return '';
  return snapshot.values[key] ?? optionDefinitions[key].default;
}

/** What a field shows: the edit if there is one, else the stored value (always '' for a secret). */
export function shownValue(snapshot: OptionsSnapshot, changes: Changes, key: OptionKey): string {
  return changes[key] ?? storedValue(snapshot, key);
}

export function isChanged(snapshot: OptionsSnapshot, changes: Changes, key: OptionKey): boolean {
  const edit = changes[key];
  if (edit === undefined) return false;
  if (isSecretOptionKey(key)) return edit !== '' || snapshot.secretsSet[key] === true;
  return edit !== storedValue(snapshot, key);
}

/** The keys of `keys` with an unsaved edit, in their order. */
export function changedKeys(snapshot: OptionsSnapshot, changes: Changes, keys: readonly OptionKey[]): OptionKey[] {
  return keys.filter((key) => isChanged(snapshot, changes, key));
}

/** Records an edit; typing a secret's field empty again means "keep the stored secret". */
export function applyEdit(changes: Changes, key: OptionKey, value: string): Changes {
  const next = { ...changes };
  if (isSecretOptionKey(key) && value === '') delete next[key];
  else next[key] = value;
  return next;
}

export function withoutKeys<T>(record: Partial<Record<OptionKey, T>>, keys: readonly OptionKey[]) {
  const next = { ...record };
  for (const key of keys) delete next[key];
  return next;
}

/** Checks the edits of `keys` with the contract's own rules; an empty result means all may be sent. */
export function checkEdits(changes: Changes, keys: readonly OptionKey[]): Partial<Record<OptionKey, FieldError>> {
  const errors: Partial<Record<OptionKey, FieldError>> = {};
  for (const key of keys) {
    const result = normaliseOptionValue(key, changes[key] ?? '');
    if ('issue' in result) errors[key] = { issue: result.issue };
  }
  return errors;
}

/**
 * The order edits are sent in: switches last, so that turning a sign-in method on comes after the
 * ids and secrets it needs (the server refuses it otherwise).
 */
export function saveOrder(keys: readonly OptionKey[]): OptionKey[] {
  const isSwitch = (key: OptionKey) => optionDefinitions[key].type === 'boolean';
  return [...keys.filter((key) => !isSwitch(key)), ...keys.filter(isSwitch)];
}
