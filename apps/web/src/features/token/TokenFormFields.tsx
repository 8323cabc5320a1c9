import ExpandMore from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { HEARTBEAT_MAX_SECONDS, HEARTBEAT_MIN_SECONDS, type UserGroupView } from '@one-hub/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { EXPIRY_PRESETS, type TokenFormErrors, type TokenFormValues, toLocalInput } from './tokenForm.js';

export interface SectionProps {
  values: TokenFormValues;
  errors: TokenFormErrors;
  change<Key extends keyof TokenFormValues>(field: Key, value: TokenFormValues[Key]): void;
  disabled: boolean;
}

export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
      <Typography component="legend" variant="overline" sx={{ color: 'text.secondary', mb: 1, p: 0 }}>
        {title}
      </Typography>
      <Stack spacing={1.5}>{children}</Stack>
    </Box>
  );
}

/** Data attributes are valid on every slot but absent from MUI's slot prop types. */
const dataTestId = (testId: string) => ({ 'data-testid': testId });

function SwitchField({
  label,
  checked,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled: boolean;
  testId: string;
}) {
  return (
    <FormControlLabel
      sx={{ ml: 0, gap: 1, alignSelf: 'flex-start' }}
      control={
        <Switch
          size="small"
          checked={checked}
          disabled={disabled}
          onChange={(_event, value) => onChange(value)}
          slotProps={{ input: dataTestId(testId) }}
        />
      }
      label={<Typography variant="body2">{label}</Typography>}
    />
  );
}

export function QuotaSection({ values, errors, change, disabled }: SectionProps) {
  const { t } = useTranslation('token');
  const format = useQuotaFormatter();
  const amount = Number(values.remainQuota);
  const hint = Number.isFinite(amount) && values.remainQuota !== '' ? format.equivalent(amount) || format(amount) : '';
  return (
    <FormSection title={t('form.quotaSection')}>
      <TextField
        name="remain_quota"
        type="number"
        label={t('form.remainQuota')}
        value={values.remainQuota}
        onChange={(event) => change('remainQuota', event.target.value)}
        error={Boolean(errors.remainQuota)}
        helperText={errors.remainQuota ?? (values.unlimitedQuota ? t('form.unlimitedHint') : hint)}
        disabled={disabled || values.unlimitedQuota}
        slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'token-form-quota' } }}
      />
      <SwitchField
        label={t('form.unlimited')}
        checked={values.unlimitedQuota}
        onChange={(checked) => change('unlimitedQuota', checked)}
        disabled={disabled}
        testId="token-form-unlimited"
      />
    </FormSection>
  );
}

export function ExpirySection({ values, errors, change, disabled }: SectionProps) {
  const { t } = useTranslation('token');
  const choosePreset = (seconds: number) => {
    change('neverExpires', false);
    change('expiresAt', toLocalInput(Math.floor(Date.now() / 1000) + seconds));
  };
  return (
    <FormSection title={t('form.expirySection')}>
      <TextField
        name="expired_time"
        type="datetime-local"
        label={t('form.expiresAt')}
        value={values.neverExpires ? '' : values.expiresAt}
        onChange={(event) => change('expiresAt', event.target.value)}
        error={Boolean(errors.expiresAt)}
        helperText={errors.expiresAt ?? (values.neverExpires ? t('form.neverHint') : undefined)}
        disabled={disabled || values.neverExpires}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'token-form-expiry' } }}
      />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <SwitchField
          label={t('form.never')}
          checked={values.neverExpires}
          onChange={(checked) => change('neverExpires', checked)}
          disabled={disabled}
          testId="token-form-never"
        />
        {EXPIRY_PRESETS.map((preset) => (
          <Chip
            key={preset.id}
            label={t(`form.presets.${preset.id}`)}
            size="small"
            variant="outlined"
            clickable
            disabled={disabled}
            onClick={() => choosePreset(preset.seconds)}
            data-testid={`token-form-preset-${preset.id}`}
          />
        ))}
      </Stack>
    </FormSection>
  );
}

function groupLabel(group: UserGroupView | undefined, symbol: string, ratioText: string): string {
  return group ? `${group.name} · ${ratioText}` : symbol;
}

export function GroupSection({ values, errors, change, disabled, groups }: SectionProps & { groups: UserGroupView[] }) {
  const { t } = useTranslation('token');
  const symbols = groups.map((group) => group.symbol);
  // Keep a group that is no longer offered selectable, so editing an old key does not blank it.
  for (const current of [values.group, values.backupGroup]) {
    if (current && !symbols.includes(current)) symbols.push(current);
  }
  const options = (emptyLabel: string) => [
    <MenuItem key="" value="">
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {emptyLabel}
      </Typography>
    </MenuItem>,
    ...symbols.map((symbol) => {
      const group = groups.find((entry) => entry.symbol === symbol);
      return (
        <MenuItem key={symbol} value={symbol}>
          {groupLabel(group, symbol, t('form.groupRatio', { ratio: group?.ratio ?? 1 }))}
        </MenuItem>
      );
    }),
  ];
  return (
    <FormSection title={t('form.groupSection')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <TextField
          select
          label={t('form.group')}
          value={values.group}
          onChange={(event) => change('group', event.target.value)}
          error={Boolean(errors.group)}
          helperText={errors.group ?? t('form.groupHint')}
          disabled={disabled}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          data-testid="token-form-group"
        >
          {options(t('form.groupDefault'))}
        </TextField>
        <TextField
          select
          label={t('form.backupGroup')}
          value={values.backupGroup}
          onChange={(event) => change('backupGroup', event.target.value)}
          error={Boolean(errors.backupGroup)}
          helperText={errors.backupGroup ?? t('form.backupGroupHint')}
          disabled={disabled}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          data-testid="token-form-backup-group"
        >
          {options(t('form.backupNone'))}
        </TextField>
      </Stack>
    </FormSection>
  );
}

export function LimitsSection({ values, errors, change, disabled }: SectionProps) {
  const { t } = useTranslation('token');
  const anyLimit = values.modelLimitEnabled || values.ipLimitEnabled || values.heartbeatEnabled || !!Number(values.rpm);
  const hasError = Boolean(
    errors.models || errors.ipWhitelist || errors.rpm || errors.concurrency || errors.heartbeatSeconds,
  );
  const [expanded, setExpanded] = useState(anyLimit);
  // A refused limit must be visible, so the section opens by itself.
  useEffect(() => {
    if (hasError) setExpanded(true);
  }, [hasError]);
  return (
    <Accordion
      disableGutters
      expanded={expanded}
      onChange={(_event, open) => setExpanded(open)}
      variant="outlined"
      sx={{ borderRadius: 1, '&::before': { display: 'none' } }}
    >
      <AccordionSummary expandIcon={<ExpandMore />} data-testid="token-form-advanced">
        <Box>
          <Typography variant="subtitle2">{t('form.advanced')}</Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('form.advancedHint')}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <Stack spacing={2.5}>
          <FormSection title={t('form.modelsSection')}>
            <SwitchField
              label={t('form.modelLimit')}
              checked={values.modelLimitEnabled}
              onChange={(checked) => change('modelLimitEnabled', checked)}
              disabled={disabled}
              testId="token-form-model-limit"
            />
            <Autocomplete
              multiple
              freeSolo
              options={[]}
              value={values.models}
              onChange={(_event, models) => change('models', models)}
              disabled={disabled || !values.modelLimitEnabled}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('form.models')}
                  error={Boolean(errors.models)}
                  helperText={errors.models ?? t('form.modelsHint')}
                />
              )}
            />
          </FormSection>
          <FormSection title={t('form.ipSection')}>
            <SwitchField
              label={t('form.ipLimit')}
              checked={values.ipLimitEnabled}
              onChange={(checked) => change('ipLimitEnabled', checked)}
              disabled={disabled}
              testId="token-form-ip-limit"
            />
            <TextField
              multiline
              minRows={2}
              label={t('form.ipWhitelist')}
              placeholder={t('form.ipPlaceholder')}
              value={values.ipWhitelist}
              onChange={(event) => change('ipWhitelist', event.target.value)}
              error={Boolean(errors.ipWhitelist)}
              helperText={errors.ipWhitelist ?? t('form.ipHint')}
              disabled={disabled || !values.ipLimitEnabled}
              slotProps={{ htmlInput: { 'data-testid': 'token-form-ips' } }}
            />
          </FormSection>
          <FormSection title={t('form.rateSection')}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
              <TextField
                type="number"
                label={t('form.rpm')}
                value={values.rpm}
                onChange={(event) => change('rpm', event.target.value)}
                error={Boolean(errors.rpm)}
                helperText={errors.rpm ?? t('form.zeroNoLimit')}
                disabled={disabled}
                slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'token-form-rpm' } }}
              />
              <TextField
                type="number"
                label={t('form.concurrency')}
                value={values.concurrency}
                onChange={(event) => change('concurrency', event.target.value)}
                error={Boolean(errors.concurrency)}
                helperText={errors.concurrency ?? t('form.zeroNoLimit')}
                disabled={disabled}
                slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'token-form-concurrency' } }}
              />
            </Stack>
          </FormSection>
          <FormSection title={t('form.heartbeatSection')}>
            <SwitchField
              label={t('form.heartbeat')}
              checked={values.heartbeatEnabled}
              onChange={(checked) => change('heartbeatEnabled', checked)}
              disabled={disabled}
              testId="token-form-heartbeat"
            />
            <TextField
              type="number"
              label={t('form.heartbeatSeconds')}
              value={values.heartbeatSeconds}
              onChange={(event) => change('heartbeatSeconds', event.target.value)}
              error={Boolean(errors.heartbeatSeconds)}
              helperText={
                errors.heartbeatSeconds ??
                t('form.heartbeatHint', { min: HEARTBEAT_MIN_SECONDS, max: HEARTBEAT_MAX_SECONDS })
              }
              disabled={disabled || !values.heartbeatEnabled}
              slotProps={{ htmlInput: { min: HEARTBEAT_MIN_SECONDS, max: HEARTBEAT_MAX_SECONDS, step: 1 } }}
            />
          </FormSection>
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}
