import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { FALLBACK_MODEL_PRICE, type OptionKey, priceToUsd } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useFieldErrorText, useSettingsForm } from './SettingsForm.js';
import { isChanged, shownValue } from './settingsForm.js';

/** The fallback price of unpriced models in $ per 1M tokens, for the help texts that name it. */
export const FALLBACK_USD = {
  fallbackInput: `$${priceToUsd(FALLBACK_MODEL_PRICE.input).perMillion}`,
  fallbackOutput: `$${priceToUsd(FALLBACK_MODEL_PRICE.output).perMillion}`,
};

/** Everything a field editor needs about its option: value, texts, state and actions. */
export function useOptionField(key: OptionKey) {
  const { t } = useTranslation('setting');
  const form = useSettingsForm();
  const errorText = useFieldErrorText()(form.errors[key]);
  const siteInfo = useSiteInfo();
  // OAuth callback addresses in the help texts use the address being edited, else the saved one.
  const server = (shownValue(form.snapshot, form.changes, 'ServerAddress') || siteInfo.server_address || '').replace(
    /\/+$/,
    '',
  );
  return {
    key,
    value: shownValue(form.snapshot, form.changes, key),
    changed: isChanged(form.snapshot, form.changes, key),
    label: t(`fields.${key}.label`),
    help: t(`fields.${key}.help`, { server, ...FALLBACK_USD }),
    errorText,
    invalid: Boolean(errorText),
    edit: (value: string) => form.edit(key, value),
    check: () => form.check(key),
    testId: `setting-field-${key}`,
  };
}

export type OptionField = ReturnType<typeof useOptionField>;

/** What a text input of an option takes from its field: the value, edits, a check on leaving, the error or help. */
export function optionTextProps(field: OptionField) {
  return {
    value: field.value,
    onChange: (event: { target: { value: string } }) => field.edit(event.target.value),
    onBlur: field.check,
    error: field.invalid,
    helperText: field.errorText ?? field.help,
  };
}

/** The data attributes of an option's input: the tests find it by them and read whether it changed. */
export function optionInputData(field: OptionField) {
  return { 'data-testid': field.testId, 'data-changed': field.changed };
}

/** A field's label, with a dot while it holds an unsaved change. */
export function ChangedLabel({ label, changed }: { label: string; changed: boolean }) {
  const { t } = useTranslation('setting');
  return (
    <>
      {label}
      {changed && (
        <Tooltip title={t('save.fieldChanged')}>
          <Box
            component="span"
            aria-label={t('save.fieldChanged')}
            sx={{
              display: 'inline-block',
              width: 7,
              height: 7,
              ml: 0.75,
              borderRadius: '50%',
              bgcolor: 'warning.main',
              verticalAlign: 'middle',
            }}
          />
        </Tooltip>
      )}
    </>
  );
}
