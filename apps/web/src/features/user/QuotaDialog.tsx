import Add from '@mui/icons-material/Add';
import ArrowForward from '@mui/icons-material/ArrowForward';
import Remove from '@mui/icons-material/Remove';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { UserView } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { describeError } from '../../lib/notify.js';
import { quotaUnitOf } from '../../lib/quotaAmount.js';
import {
  QUOTA_REMARK_MAX_LENGTH,
  type QuotaDirection,
  type QuotaFormValues,
  quotaDelta,
  validateQuotaForm,
} from './quotaForm.js';
import { useChangeQuota } from './user.api.js';

interface QuotaDialogProps {
  user: UserView | null;
  onClose(): void;
  onDone(user: UserView, delta: number): void;
}

function Balance({
  label,
  value,
  testId,
  tone,
}: {
  label: string;
  value: number | null;
  testId: string;
  tone?: string;
}) {
  const format = useQuotaFormatter();
  return (
    <Box sx={{ minWidth: 0, flex: 1 }}>
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
        {label}
      </Typography>
      <Typography
        variant="h6"
        component="p"
        sx={{ fontVariantNumeric: 'tabular-nums', color: tone, lineHeight: 1.3 }}
        data-testid={testId}
        data-quota={value ?? ''}
        title={value === null ? undefined : value.toLocaleString()}
      >
        {value === null ? '—' : format(value)}
      </Typography>
      {value !== null && format.displayInCurrency && (
        <Typography variant="caption" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
          {value.toLocaleString()}
        </Typography>
      )}
    </Box>
  );
}

function QuotaForm({ user, onClose, onDone }: { user: UserView } & Omit<QuotaDialogProps, 'user'>) {
  const { t } = useTranslation('user');
  const format = useQuotaFormatter();
  const siteInfo = useSiteInfo();
  const unit = quotaUnitOf(siteInfo);
  const [values, setValues] = useState<QuotaFormValues>({ direction: 'add', amount: '', remark: '' });
  const [errors, setErrors] = useState<{ amount?: string; remark?: string }>({});
  const change = useChangeQuota();
  const saving = change.isPending;

  const delta = quotaDelta(values, unit);
  const after = Number.isFinite(delta) && delta !== 0 ? user.quota + delta : null;
  const update = (field: keyof QuotaFormValues, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field === 'direction' ? 'amount' : field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateQuotaForm(values, user.quota, unit, (key, options) => t(key, options));
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    change.mutate({ id: user.id, ...result.body }, { onSuccess: (saved) => onDone(saved, result.body.quota) });
  };

  const amountHint =
    after === null
      ? unit.currency
        ? t('quota.amountHintCurrency')
        : t('quota.amountHintQuota')
      : unit.currency
        ? t('quota.equalsQuota', { quota: Math.abs(delta).toLocaleString() })
        : t('quota.equalsAmount', { amount: format(Math.abs(delta)) });
  const subtracting = values.direction === 'subtract';
  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      data-testid="user-quota-form"
      sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
    >
      <DialogTitle>{t('quota.title', { name: user.username })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2.5}>
          {change.isError && (
            <Alert severity="error" data-testid="user-quota-error">
              {describeError(change.error)}
            </Alert>
          )}
          <ToggleButtonGroup
            exclusive
            fullWidth
            size="small"
            color={subtracting ? 'error' : 'primary'}
            value={values.direction}
            onChange={(_event, direction: QuotaDirection | null) => direction && update('direction', direction)}
            aria-label={t('quota.direction')}
            disabled={saving}
          >
            <ToggleButton value="add" data-testid="user-quota-add">
              <Add fontSize="small" sx={{ mr: 0.75 }} />
              {t('quota.add')}
            </ToggleButton>
            <ToggleButton value="subtract" data-testid="user-quota-subtract">
              <Remove fontSize="small" sx={{ mr: 0.75 }} />
              {t('quota.subtract')}
            </ToggleButton>
          </ToggleButtonGroup>
          <TextField
            name="amount"
            label={unit.currency ? t('quota.amountCurrency') : t('quota.amountQuota')}
            value={values.amount}
            onChange={(event) => update('amount', event.target.value)}
            error={Boolean(errors.amount)}
            helperText={errors.amount ?? amountHint}
            disabled={saving}
            autoFocus
            autoComplete="off"
            slotProps={{
              htmlInput: { inputMode: 'decimal', 'data-testid': 'user-quota-amount' },
              input: unit.currency
                ? { startAdornment: <InputAdornment position="start">{subtracting ? '−$' : '+$'}</InputAdornment> }
                : { startAdornment: <InputAdornment position="start">{subtracting ? '−' : '+'}</InputAdornment> },
            }}
          />
          <TextField
            name="remark"
            label={t('quota.remark')}
            value={values.remark}
            onChange={(event) => update('remark', event.target.value)}
            error={Boolean(errors.remark)}
            helperText={errors.remark ?? t('quota.remarkHint', { max: QUOTA_REMARK_MAX_LENGTH })}
            disabled={saving}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { 'data-testid': 'user-quota-remark' } }}
          />
          <Stack
            direction="row"
            spacing={1.5}
            sx={{ alignItems: 'center', p: 2, borderRadius: 2, bgcolor: 'action.hover' }}
            data-testid="user-quota-summary"
          >
            <Balance label={t('quota.current')} value={user.quota} testId="user-quota-current" />
            <ArrowForward sx={{ color: 'text.secondary' }} />
            <Balance
              label={t('quota.after')}
              value={after}
              testId="user-quota-after"
              tone={
                after === null ? undefined : after < 0 ? 'error.main' : subtracting ? 'warning.main' : 'success.main'
              }
            />
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} disabled={saving} color="inherit" data-testid="user-quota-cancel">
          {t('form.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          color={subtracting ? 'error' : 'primary'}
          loading={saving}
          data-testid="user-quota-submit"
        >
          {after === null
            ? t('quota.confirm')
            : subtracting
              ? t('quota.confirmSubtract', { amount: format(Math.abs(delta)) })
              : t('quota.confirmAdd', { amount: format(Math.abs(delta)) })}
        </Button>
      </DialogActions>
    </Box>
  );
}

/** Adds to or takes from a user's balance, with an optional remark kept in the manage log. */
export function QuotaDialog({
  open,
  user,
  session,
  ...props
}: QuotaDialogProps & { open: boolean; session: number | null }) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog
      open={open}
      onClose={props.onClose}
      fullWidth
      maxWidth="xs"
      fullScreen={fullScreen}
      data-testid="user-quota-dialog"
      scroll="paper"
    >
      {user && session !== null && <QuotaForm key={session} user={user} {...props} />}
    </Dialog>
  );
}
