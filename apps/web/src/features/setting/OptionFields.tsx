import AutoFixHighOutlined from '@mui/icons-material/AutoFixHighOutlined';
import BackspaceOutlined from '@mui/icons-material/BackspaceOutlined';
import UndoOutlined from '@mui/icons-material/UndoOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type OptionKey, optionDefinitions } from '@one-hub/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { useSettingsForm } from './SettingsForm.js';
import { ChangedLabel, optionInputData, optionTextProps, useOptionField } from './useOptionField.js';

const monospace = { fontFamily: monospaceFontStack, fontSize: '0.8125rem' } as const;

/** Options holding an amount of quota: their help shows what the amount is worth. */
const QUOTA_AMOUNTS = new Set<OptionKey>([
  'QuotaForNewUser',
  'QuotaForInviter',
  'QuotaForInvitee',
  'QuotaRemindThreshold',
  'PreConsumedQuota',
]);

/** A switch as a row: label and explanation on the left, the switch on the right. */
export function SwitchField({ name }: { name: OptionKey }) {
  const field = useOptionField(name);
  const labelId = useId();
  const checked = field.value === 'true';
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, py: 1 }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography id={labelId} variant="body2" sx={{ fontWeight: 600 }}>
          <ChangedLabel label={field.label} changed={field.changed} />
        </Typography>
        <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.25 }}>
          {field.help}
        </Typography>
        {field.errorText && (
          <FormHelperText error sx={{ mx: 0 }} data-testid={`setting-error-${name}`}>
            {field.errorText}
          </FormHelperText>
        )}
      </Box>
      <Switch
        checked={checked}
        onChange={(event) => field.edit(String(event.target.checked))}
        sx={{ flexShrink: 0, mt: -0.5 }}
        slotProps={{
          input: {
            'aria-labelledby': labelId,
            'aria-invalid': field.invalid,
            // @ts-expect-error data attributes are passed through to the input
            'data-testid': field.testId,
            'data-changed': field.changed,
          },
        }}
      />
    </Box>
  );
}

interface TextOptionProps {
  name: OptionKey;
  variant?: 'text' | 'number' | 'multiline' | 'code';
}

/** A one-line text or number field, or a multi-line one (`code` in monospace). */
export function TextOptionField({ name, variant = 'text' }: TextOptionProps) {
  const field = useOptionField(name);
  const format = useQuotaFormatter();
  const multiline = variant === 'multiline' || variant === 'code';
  const amount = Number(field.value);
  const worth =
    QUOTA_AMOUNTS.has(name) && field.value.trim() !== '' && Number.isFinite(amount) ? format.equivalent(amount) : '';
  return (
    <TextField
      fullWidth
      label={<ChangedLabel label={field.label} changed={field.changed} />}
      {...optionTextProps(field)}
      helperText={field.errorText ?? `${field.help}${worth}`}
      multiline={multiline}
      minRows={multiline ? 3 : undefined}
      maxRows={multiline ? 12 : undefined}
      slotProps={{
        htmlInput: {
          ...optionInputData(field),
          inputMode: variant === 'number' ? 'decimal' : undefined,
          spellCheck: variant === 'code' ? false : undefined,
          style: variant === 'code' ? monospace : undefined,
        },
        formHelperText: { 'data-testid': `setting-help-${name}` } as object,
      }}
    />
  );
}

/** A fixed list of values (the definition's `choices`). */
export function SelectField({ name }: { name: OptionKey }) {
  const field = useOptionField(name);
  const { t } = useTranslation(['common', 'setting']);
  const definition = optionDefinitions[name] as { choices?: readonly string[] };
  // The site language may stay unset, so that each visitor gets their browser's language.
  const choices = name === 'Language' ? ['', ...(definition.choices ?? [])] : (definition.choices ?? []);
  const display = (choice: string) => {
    if (name === 'Language')
      return choice ? t(`common:language.${choice}`) : t('setting:fields.Language.choices.unset');
    if (name === 'InviterRewardCondition' || name === 'UnpricedModelPolicy' || name === 'BudgetWindowMode') {
      return t(`setting:fields.${name}.choices.${choice}`);
    }
    return choice;
  };
  return (
    <TextField
      select
      fullWidth
      label={<ChangedLabel label={field.label} changed={field.changed} />}
      value={choices.includes(field.value) ? field.value : ''}
      onChange={(event) => field.edit(event.target.value)}
      error={field.invalid}
      helperText={field.errorText ?? field.help}
      slotProps={{
        htmlInput: { 'data-testid': field.testId },
        // The empty choice has a name of its own ("not set"), so it is shown rather than a blank box.
        ...(name === 'Language' ? { select: { displayEmpty: true }, inputLabel: { shrink: true } } : {}),
      }}
    >
      {choices.map((choice) => (
        <MenuItem key={choice} value={choice} data-testid={`${field.testId}-choice-${choice || 'unset'}`}>
          {display(choice)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * A write-only option: the field starts empty and says whether a value is stored; typing replaces
 * it on save, leaving it empty keeps it, and the eraser empties it on save.
 */
export function SecretField({ name }: { name: OptionKey }) {
  const { t } = useTranslation('setting');
  const field = useOptionField(name);
  const form = useSettingsForm();
  const set = form.snapshot.secretsSet[name] === true;
  const clearing = form.changes[name] === '';
  let state = t('secret.notSet');
  if (clearing) state = t('secret.clearing');
  else if (set) state = t('secret.set');
  const action = clearing ? (
    <Tooltip title={t('secret.undoClear')}>
      <IconButton size="small" edge="end" onClick={() => form.discard([name])} aria-label={t('secret.undoClear')}>
        <UndoOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  ) : (
    set && (
      <Tooltip title={t('secret.clear')}>
        <IconButton
          size="small"
          edge="end"
          onClick={() => form.clearSecret(name)}
          aria-label={t('secret.clear')}
          data-testid={`setting-secret-clear-${name}`}
        >
          <BackspaceOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    )
  );
  return (
    <TextField
      fullWidth
      type="password"
      autoComplete="new-password"
      label={<ChangedLabel label={field.label} changed={field.changed} />}
      value={clearing ? '' : field.value}
      onChange={(event) => field.edit(event.target.value)}
      placeholder={set ? t('secret.keepPlaceholder') : t('secret.emptyPlaceholder')}
      error={field.invalid}
      helperText={field.errorText ?? (clearing ? t('secret.clearingHint') : field.help)}
      slotProps={{
        inputLabel: { shrink: true },
        input: {
          endAdornment: (
            <InputAdornment position="end" sx={{ gap: 0.5 }}>
              <Chip
                size="small"
                variant="outlined"
                color={clearing ? 'warning' : set ? 'success' : 'default'}
                label={state}
                data-testid={`setting-secret-${name}`}
                data-state={set ? 'set' : 'unset'}
              />
              {action}
            </InputAdornment>
          ),
        },
        htmlInput: optionInputData(field),
        formHelperText: { 'data-testid': `setting-help-${name}` } as object,
      }}
    />
  );
}

/** JSON text in monospace, checked on blur with the contract's shape rules, with a tidy-up button. */
export function JsonField({ name }: { name: OptionKey }) {
  const { t } = useTranslation('setting');
  const field = useOptionField(name);
  const tidy = () => {
    try {
      field.edit(JSON.stringify(JSON.parse(field.value), null, 2));
    } catch {
      field.check();
    }
  };
  return (
    <Box>
      <TextField
        fullWidth
        multiline
        minRows={3}
        maxRows={14}
        label={<ChangedLabel label={field.label} changed={field.changed} />}
        {...optionTextProps(field)}
        slotProps={{
          htmlInput: {
            ...optionInputData(field),
            spellCheck: false,
            style: monospace,
          },
          formHelperText: { 'data-testid': `setting-help-${name}` } as object,
        }}
      />
      <Button size="small" startIcon={<AutoFixHighOutlined />} onClick={tidy} sx={{ mt: 0.5 }}>
        {t('json.format')}
      </Button>
    </Box>
  );
}
