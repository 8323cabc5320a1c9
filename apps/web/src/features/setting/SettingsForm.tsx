import type { OptionKey } from '@one-hub/contracts';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify.js';
import type { OptionsSnapshot } from '../../lib/optionsSnapshot.js';
import { useSaveOptions } from './setting.api.js';
import {
  applyEdit,
  type Changes,
  changedKeys,
  checkEdits,
  type FieldError,
  saveOrder,
  withoutKeys,
} from './settingsForm.js';

type Errors = Partial<Record<OptionKey, FieldError>>;

interface SettingsFormValue {
  snapshot: OptionsSnapshot;
  changes: Changes;
  errors: Errors;
  /** The section being saved, if any. */
  savingSection: string | null;
  /** What the last save of each section stored. */
  lastSaved: Record<string, OptionKey[]>;
  edit(key: OptionKey, value: string): void;
  /** Marks a write-only option to be emptied on save. */
  clearSecret(key: OptionKey): void;
  /** Drops the edits of `keys` (back to the stored values). */
  discard(keys: readonly OptionKey[]): void;
  /** Checks one field with the contract's rules (on blur). */
  check(key: OptionKey): void;
  save(section: string, keys: readonly OptionKey[]): Promise<void>;
}

const SettingsFormContext = createContext<SettingsFormValue | null>(null);

export function useSettingsForm(): SettingsFormValue {
  const value = useContext(SettingsFormContext);
  if (!value) throw new Error('useSettingsForm needs a SettingsFormProvider');
  return value;
}

/** Turns a field error into the text shown under the field: the server's message, or the rule broken. */
export function useFieldErrorText(): (error: FieldError | undefined) => string | undefined {
  const { t } = useTranslation('setting');
  return useCallback(
    (error) => {
      if (!error) return undefined;
      if ('server' in error) return error.server;
      const { issue } = error;
      switch (issue.code) {
        case 'shape':
          return t(`validation.shape.${issue.shape}.${issue.problem}`, { at: issue.at });
        case 'choice':
          return t('validation.choice', { choices: issue.choices.join(', ') });
        case 'min':
          return t('validation.min', { min: issue.min });
        case 'above':
          return t('validation.above', { min: issue.min });
        case 'max':
          return t('validation.max', { max: issue.max });
        default:
          return t(`validation.${issue.code}`);
      }
    },
    [t],
  );
}

/**
 * The edits of the whole screen, kept while the tabs change, and the save of one section: checked
 * in the browser with the contract's rules first (nothing is sent if one fails), then one PUT per
 * changed key; keys the server refuses keep their edit and show its message.
 */
export function SettingsFormProvider({ snapshot, children }: { snapshot: OptionsSnapshot; children: ReactNode }) {
  const { t } = useTranslation('setting');
  const saveOptions = useSaveOptions();
  const [changes, setChanges] = useState<Changes>({});
  const [errors, setErrors] = useState<Errors>({});
  const [savingSection, setSavingSection] = useState<string | null>(null);
  const [lastSaved, setLastSaved] = useState<Record<string, OptionKey[]>>({});
  const dirty = changedKeys(snapshot, changes, Object.keys(changes) as OptionKey[]).length > 0;

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const forget = useCallback((keys: readonly OptionKey[]) => setErrors((current) => withoutKeys(current, keys)), []);

  const save = useCallback(
    async (section: string, keys: readonly OptionKey[]) => {
      const pending = changedKeys(snapshot, changes, keys);
      if (pending.length === 0) return;
      const problems = checkEdits(changes, pending);
      if (Object.keys(problems).length > 0) {
        setErrors((current) => ({ ...withoutKeys(current, pending), ...problems }));
        notify.error(t('save.invalid'));
        return;
      }
      setSavingSection(section);
      try {
        const result = await saveOptions.mutateAsync(saveOrder(pending).map((key) => [key, changes[key] ?? '']));
        setChanges((current) => withoutKeys(current, result.saved));
        const refused: Errors = {};
        for (const [key, message] of Object.entries(result.failed)) refused[key as OptionKey] = { server: message };
        setErrors((current) => ({ ...withoutKeys(current, pending), ...refused }));
        setLastSaved((current) => ({ ...current, [section]: result.saved }));
        const names = (list: readonly OptionKey[]) =>
          list.map((key) => t(`fields.${key}.label`)).join(t('save.joiner'));
        const failedKeys = Object.keys(refused) as OptionKey[];
        if (failedKeys.length === 0) notify.success(t('save.done', { fields: names(result.saved) }));
        else if (result.saved.length === 0) notify.error(t('save.noneSaved', { failed: names(failedKeys) }));
        else notify.warning(t('save.partly', { fields: names(result.saved), failed: names(failedKeys) }));
      } finally {
        setSavingSection(null);
      }
    },
    [snapshot, changes, saveOptions, t],
  );

  const value = useMemo<SettingsFormValue>(
    () => ({
      snapshot,
      changes,
      errors,
      savingSection,
      lastSaved,
      edit: (key, text) => {
        setChanges((current) => applyEdit(current, key, text));
        forget([key]);
      },
      clearSecret: (key) => {
        setChanges((current) => ({ ...current, [key]: '' }));
        forget([key]);
      },
      discard: (keys) => {
        setChanges((current) => withoutKeys(current, keys));
        forget(keys);
      },
      check: (key) => {
        if (changedKeys(snapshot, changes, [key]).length === 0) return;
        const problem = checkEdits(changes, [key])[key];
        if (problem) setErrors((current) => ({ ...current, [key]: problem }));
      },
      save,
    }),
    [snapshot, changes, errors, savingSection, lastSaved, forget, save],
  );

  return <SettingsFormContext.Provider value={value}>{children}</SettingsFormContext.Provider>;
}
