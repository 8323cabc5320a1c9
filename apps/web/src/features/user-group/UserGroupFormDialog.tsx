import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UserGroupView } from '@one-hub/contracts';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm, FormDialog } from '../../components/FormDialog.js';
import { describeError } from '../../lib/notify.js';
import { monospace } from './UserGroupCells.js';
import { useSaveUserGroup } from './userGroup.api.js';
import {
  emptyUserGroupForm,
  fieldOfServerMessage,
  GROUP_NAME_MAX_LENGTH,
  SYMBOL_MAX_LENGTH,
  type UserGroupFormErrors,
  type UserGroupFormValues,
  userGroupToForm,
  validateUserGroupForm,
} from './userGroupForm.js';

interface UserGroupFormDialogProps {
  /** The group to edit; null to create one. */
  group: UserGroupView | null;
  onClose(): void;
  onSaved(group: UserGroupView, created: boolean): void;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
      <Typography component="legend" variant="overline" sx={{ color: 'text.secondary', mb: 1, p: 0 }}>
        {title}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </Box>
  );
}

function SwitchRow({
  label,
  description,
  checked,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled: boolean;
  testId: string;
}) {
  return (
    <FormControlLabel
      sx={{ ml: 0, gap: 1.5, alignItems: 'flex-start' }}
      control={
        <Switch
          checked={checked}
          disabled={disabled}
          onChange={(_event, value) => onChange(value)}
          slotProps={{ input: { 'data-testid': testId } as object }}
        />
      }
      label={
        <Box sx={{ pt: 0.75 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {label}
          </Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {description}
          </Typography>
        </Box>
      }
    />
  );
}

function UserGroupForm({ group, onClose, onSaved }: UserGroupFormDialogProps) {
  const { t } = useTranslation('userGroup');
  const [values, setValues] = useState<UserGroupFormValues>(() =>
    group ? userGroupToForm(group) : emptyUserGroupForm(),
  );
  const [errors, setErrors] = useState<UserGroupFormErrors>({});
  const [problem, setProblem] = useState('');
  const save = useSaveUserGroup();
  const saving = save.isPending;
  const creating = group === null;

  const change = <Key extends keyof UserGroupFormValues>(field: Key, value: UserGroupFormValues[Key]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({
      ...current,
      [field]: undefined,
      ...(field === 'promotion' ? { min: undefined, max: undefined } : {}),
    }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateUserGroupForm(values, group?.id ?? null, (key, options) => t(key, options));
    if (!result.ok) {
      setErrors(result.errors);
      setProblem(result.unplaced.join(' '));
      return;
    }
    setProblem('');
    save.mutate(result.body, {
      onSuccess: (saved) => onSaved(saved, creating),
      onError: (error) => {
        const field = fieldOfServerMessage(error instanceof Error ? error.message : '');
        if (field) setErrors((current) => ({ ...current, [field]: describeError(error) }));
        else setProblem(describeError(error));
      },
    });
  };

  const numberProps = (testId: string, step: string) => ({
    htmlInput: { inputMode: 'decimal' as const, min: 0, step, 'data-testid': testId },
  });
  return (
    <DialogForm
      onSubmit={submit}
      testId="user-group-form"
      title={creating ? t('form.createTitle') : t('form.editTitle', { name: group.name })}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('form.cancel')}
      submitLabel={creating ? t('form.create') : t('form.save')}
      cancelTestId="user-group-form-cancel"
      submitTestId="user-group-form-submit"
    >
      <Stack spacing={3}>
        {problem && (
          <Alert severity="error" data-testid="user-group-form-error">
            {problem}
          </Alert>
        )}
        <Section title={t('form.identitySection')}>
          <TextField
            name="symbol"
            label={t('form.symbol')}
            value={values.symbol}
            onChange={(event) => change('symbol', event.target.value)}
            error={Boolean(errors.symbol)}
            helperText={
              errors.symbol ?? (creating ? t('form.symbolHint', { max: SYMBOL_MAX_LENGTH }) : t('form.symbolFixed'))
            }
            disabled={saving}
            required={creating}
            autoFocus={creating}
            autoComplete="off"
            slotProps={{
              input: { readOnly: !creating, sx: { fontFamily: monospace } },
              htmlInput: { 'data-testid': 'user-group-form-symbol', 'aria-readonly': !creating },
            }}
            sx={creating ? undefined : { '& .MuiInputBase-root': { bgcolor: 'action.hover' } }}
          />
          <TextField
            name="name"
            label={t('form.name')}
            value={values.name}
            onChange={(event) => change('name', event.target.value)}
            error={Boolean(errors.name)}
            helperText={errors.name ?? t('form.nameHint', { max: GROUP_NAME_MAX_LENGTH })}
            disabled={saving}
            required
            autoFocus={!creating}
            slotProps={{ htmlInput: { 'data-testid': 'user-group-form-name' } }}
          />
        </Section>
        <Section title={t('form.limitsSection')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              fullWidth
              name="ratio"
              type="number"
              label={t('form.ratio')}
              value={values.ratio}
              onChange={(event) => change('ratio', event.target.value)}
              error={Boolean(errors.ratio)}
              helperText={errors.ratio ?? t('form.ratioHint')}
              disabled={saving}
              required
              slotProps={{
                ...numberProps('user-group-form-ratio', '0.01'),
                input: { startAdornment: <InputAdornment position="start">×</InputAdornment> },
              }}
            />
            <TextField
              fullWidth
              name="api_rate"
              type="number"
              label={t('form.apiRate')}
              value={values.apiRate}
              onChange={(event) => change('apiRate', event.target.value)}
              error={Boolean(errors.apiRate)}
              helperText={errors.apiRate ?? t('form.apiRateHint')}
              disabled={saving}
              required
              slotProps={{
                ...numberProps('user-group-form-api-rate', '1'),
                input: { endAdornment: <InputAdornment position="end">{t('form.rpm')}</InputAdornment> },
              }}
            />
          </Stack>
          <SwitchRow
            label={t('form.public')}
            description={t('form.publicHint')}
            checked={values.public}
            onChange={(checked) => change('public', checked)}
            disabled={saving}
            testId="user-group-form-public"
          />
        </Section>
        <Section title={t('form.promotionSection')}>
          <SwitchRow
            label={t('form.promotion')}
            description={t('form.promotionHint')}
            checked={values.promotion}
            onChange={(checked) => change('promotion', checked)}
            disabled={saving}
            testId="user-group-form-promotion"
          />
          <Collapse in={values.promotion} unmountOnExit>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ pt: 0.5 }}>
              <TextField
                fullWidth
                name="min"
                type="number"
                label={t('form.min')}
                value={values.min}
                onChange={(event) => change('min', event.target.value)}
                error={Boolean(errors.min)}
                helperText={errors.min ?? t('form.minHint')}
                disabled={saving}
                slotProps={{
                  ...numberProps('user-group-form-min', '1'),
                  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                }}
              />
              <TextField
                fullWidth
                name="max"
                type="number"
                label={t('form.max')}
                value={values.max}
                onChange={(event) => change('max', event.target.value)}
                error={Boolean(errors.max)}
                helperText={errors.max ?? t('form.maxHint')}
                disabled={saving}
                slotProps={{
                  ...numberProps('user-group-form-max', '1'),
                  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                }}
              />
            </Stack>
          </Collapse>
        </Section>
      </Stack>
    </DialogForm>
  );
}

/** Create or edit a user group; the symbol is fixed once the group exists. */
export function UserGroupFormDialog({
  open,
  session,
  ...props
}: UserGroupFormDialogProps & { open: boolean; session: number | null }) {
  return (
    <FormDialog open={open} onClose={props.onClose} testId="user-group-dialog">
      {session !== null && <UserGroupForm key={session} {...props} />}
    </FormDialog>
  );
}
