import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { HEARTBEAT_MAX_SECONDS, HEARTBEAT_MIN_SECONDS, type UserGroupView } from '@one-hub/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FoldedSection } from '../../components/form/FoldedSection.js';
import { FormSection } from '../../components/form/FormSection.js';
import { bindSwitchFields, bindTextFields } from '../../components/form/fieldBinding.js';
import { SwitchField } from '../../components/form/SwitchField.js';
import { useGroupName } from '../../hooks/useGroupName.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { amountToQuota, quotaUnitOf } from '../../lib/quotaAmount.js';
import { EXPIRY_PRESETS, type TokenFormErrors, type TokenFormValues, toLocalInput } from './tokenForm.js';

export interface SectionProps {
  values: TokenFormValues;
  errors: TokenFormErrors;
  change<Key extends keyof TokenFormValues>(field: Key, value: TokenFormValues[Key]): void;
  disabled: boolean;
}

export function QuotaSection(props: SectionProps) {
  const { values, disabled } = props;
  const { t } = useTranslation('token');
  const switchOf = bindSwitchFields(props);
  const format = useQuotaFormatter();
  const unit = quotaUnitOf(useSiteInfo());
  const quota = amountToQuota(values.remainQuota, unit);
  // Typed in US$: the hint gives the quota it stands for; typed in quota, what it is worth.
  const hint = Number.isFinite(quota)
    ? unit.currency
      ? t('form.quotaEquivalent', { quota: quota.toLocaleString() })
      : format.equivalent(quota) || format(quota)
    : '';
  return (
    <FormSection title={t('form.quotaSection')} spacing={1.5}>
      <TextField
        name="remain_quota"
        label={unit.currency ? t('form.remainQuotaCurrency') : t('form.remainQuota')}
        {...bindTextFields(props)('remainQuota', values.unlimitedQuota ? t('form.unlimitedHint') : hint)}
        disabled={disabled || values.unlimitedQuota}
        slotProps={{
          htmlInput: { inputMode: 'decimal', 'data-testid': 'token-form-quota' },
          input: unit.currency ? { startAdornment: <InputAdornment position="start">$</InputAdornment> } : {},
        }}
      />
      <SwitchField label={t('form.unlimited')} {...switchOf('unlimitedQuota', 'token-form-unlimited')} />
    </FormSection>
  );
}

export function ExpirySection(props: SectionProps) {
  const { values, change, disabled } = props;
  const { t } = useTranslation('token');
  const switchOf = bindSwitchFields(props);
  const choosePreset = (seconds: number) => {
    change('neverExpires', false);
    change('expiresAt', toLocalInput(Math.floor(Date.now() / 1000) + seconds));
  };
  return (
    <FormSection title={t('form.expirySection')} spacing={1.5}>
      <TextField
        name="expired_time"
        type="datetime-local"
        label={t('form.expiresAt')}
        {...bindTextFields(props)('expiresAt', values.neverExpires ? t('form.neverHint') : undefined)}
        value={values.neverExpires ? '' : values.expiresAt}
        disabled={disabled || values.neverExpires}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'token-form-expiry' } }}
      />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <SwitchField label={t('form.never')} {...switchOf('neverExpires', 'token-form-never')} />
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

/** `billingTag`: whether the billing tag is offered (reliable users and above; the server ignores it from others). */
export function GroupSection({
  groups,
  billingTag,
  ...props
}: SectionProps & { groups: UserGroupView[]; billingTag: boolean }) {
  const { values } = props;
  const { t } = useTranslation('token');
  const groupName = useGroupName();
  const bind = bindTextFields(props);
  const symbols = groups.map((group) => group.symbol);
  // Keep a group that is no longer offered selectable, so editing an old key does not blank it.
  for (const current of [values.group, values.backupGroup, values.billingTag]) {
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
          {group ? `${groupName(group)} · ${t('form.groupRatio', { ratio: group.ratio })}` : symbol}
        </MenuItem>
      );
    }),
  ];
  return (
    <FormSection title={t('form.groupSection')} spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <TextField
          select
          label={t('form.group')}
          {...bind('group', t('form.groupHint'))}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          data-testid="token-form-group"
        >
          {options(t('form.groupDefault'))}
        </TextField>
        <TextField
          select
          label={t('form.backupGroup')}
          {...bind('backupGroup', t('form.backupGroupHint'))}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          data-testid="token-form-backup-group"
        >
          {options(t('form.backupNone'))}
        </TextField>
      </Stack>
      {billingTag && (
        <TextField
          select
          label={t('form.billingTag')}
          {...bind('billingTag', t('form.billingTagHint'))}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          data-testid="token-form-billing-tag"
        >
          {options(t('form.backupNone'))}
        </TextField>
      )}
    </FormSection>
  );
}

export function LimitsSection(props: SectionProps) {
  const { values, errors, change, disabled } = props;
  const { t } = useTranslation('token');
  const bind = bindTextFields(props);
  const switchOf = bindSwitchFields(props);
  const anyLimit =
    values.modelLimitEnabled ||
    values.ipLimitEnabled ||
    values.heartbeatEnabled ||
    !!Number(values.rpm) ||
    !!Number(values.tpm) ||
    !values.chatCache;
  const hasError = Boolean(
    errors.models || errors.ipWhitelist || errors.rpm || errors.tpm || errors.concurrency || errors.heartbeatSeconds,
  );
  const [expanded, setExpanded] = useState(anyLimit);
  // A refused limit must be visible, so the section opens by itself.
  useEffect(() => {
    if (hasError) setExpanded(true);
  }, [hasError]);
  return (
    <FoldedSection
      title={t('form.advanced')}
      hint={t('form.advancedHint')}
      expanded={expanded}
      onExpand={setExpanded}
      testId="token-form-advanced"
      spacing={2.5}
    >
      <FormSection title={t('form.modelsSection')} spacing={1.5}>
        <SwitchField label={t('form.modelLimit')} {...switchOf('modelLimitEnabled', 'token-form-model-limit')} />
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
      <FormSection title={t('form.ipSection')} spacing={1.5}>
        <SwitchField label={t('form.ipLimit')} {...switchOf('ipLimitEnabled', 'token-form-ip-limit')} />
        <TextField
          multiline
          minRows={2}
          label={t('form.ipWhitelist')}
          placeholder={t('form.ipPlaceholder')}
          {...bind('ipWhitelist', t('form.ipHint'))}
          disabled={disabled || !values.ipLimitEnabled}
          slotProps={{ htmlInput: { 'data-testid': 'token-form-ips' } }}
        />
      </FormSection>
      <FormSection title={t('form.rateSection')} spacing={1.5}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField
            type="number"
            label={t('form.rpm')}
            {...bind('rpm', t('form.zeroNoLimit'))}
            slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'token-form-rpm' } }}
          />
          <TextField
            type="number"
            label={t('form.tpm')}
            {...bind('tpm', t('form.zeroNoLimit'))}
            slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'token-form-tpm' } }}
          />
          <TextField
            type="number"
            label={t('form.concurrency')}
            {...bind('concurrency', t('form.zeroNoLimit'))}
            slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'token-form-concurrency' } }}
          />
        </Stack>
      </FormSection>
      <FormSection title={t('form.heartbeatSection')} spacing={1.5}>
        <SwitchField label={t('form.heartbeat')} {...switchOf('heartbeatEnabled', 'token-form-heartbeat')} />
        <TextField
          type="number"
          label={t('form.heartbeatSeconds')}
          {...bind(
            'heartbeatSeconds',
            t('form.heartbeatHint', { min: HEARTBEAT_MIN_SECONDS, max: HEARTBEAT_MAX_SECONDS }),
          )}
          disabled={disabled || !values.heartbeatEnabled}
          slotProps={{ htmlInput: { min: HEARTBEAT_MIN_SECONDS, max: HEARTBEAT_MAX_SECONDS, step: 1 } }}
        />
      </FormSection>
      <FormSection title={t('form.cacheSection')} spacing={1.5}>
        <SwitchField label={t('form.chatCache')} {...switchOf('chatCache', 'token-form-chat-cache')} />
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('form.chatCacheHint')}
        </Typography>
      </FormSection>
    </FoldedSection>
  );
}
