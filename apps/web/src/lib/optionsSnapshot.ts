import { type OptionEntry, type OptionKey, optionDefinitions, type SecretOptionStatus } from '@one-hub/contracts';

/** What the server holds: every readable value, and for write-only options only whether they are set. */
export interface OptionsSnapshot {
  values: Partial<Record<OptionKey, string>>;
  secretsSet: Partial<Record<OptionKey, boolean>>;
}

export function toSnapshot(entries: OptionEntry[], secrets: SecretOptionStatus[]): OptionsSnapshot {
  const values: OptionsSnapshot['values'] = {};
  for (const { key, value } of entries) if (key in optionDefinitions) values[key as OptionKey] = value;
  const secretsSet: OptionsSnapshot['secretsSet'] = {};
  for (const { key, set } of secrets) if (key in optionDefinitions) secretsSet[key as OptionKey] = set;
  return { values, secretsSet };
}
