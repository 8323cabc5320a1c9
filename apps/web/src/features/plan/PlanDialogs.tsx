import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import type { PlanView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { describeError, notify } from '../../lib/notify.js';
import { UnknownUserError, useDeletePlan, useGrantPlan } from './plan.api.js';
import { grantTarget } from './planForm.js';

/** Asks before deleting a plan; the server's refusal stays in the dialog. */
export function DeletePlanDialog({ plan, onClose }: { plan: PlanView | null; onClose(): void }) {
  const { t } = useTranslation('plan');
  const remove = useDeletePlan();
  return (
    <DeleteDialog
      row={plan}
      onClose={onClose}
      remove={remove}
      title={t('delete.title')}
      message={t('delete.message', { name: plan?.name ?? '' })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('form.cancel')}
      deletedText={(deleted) => t('notify.deleted', { name: deleted.name })}
      testIdPrefix="plan"
      showsRefusal
    />
  );
}

/** Gives a plan (or one more period of it) to a user named by id or username. */
export function GrantPlanDialog({ plan, onClose }: { plan: PlanView | null; onClose(): void }) {
  const { t } = useTranslation('plan');
  const grant = useGrantPlan();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const target = grantTarget(text);
  const close = () => {
    grant.reset();
    setText('');
    setTouched(false);
    onClose();
  };
  const confirm = () => {
    setTouched(true);
    if (!plan || !target) return;
    grant.mutate(
      { plan_id: plan.id, user: target },
      {
        onSuccess: () => {
          notify.success(t('notify.granted', { name: plan.name, user: text.trim() }));
          close();
        },
      },
    );
  };
  const failure =
    grant.error instanceof UnknownUserError
      ? t('grant.unknownUser', { name: grant.error.username })
      : grant.isError
        ? describeError(grant.error)
        : null;
  return (
    <ConfirmDialog
      open={plan !== null}
      title={t('grant.title', { name: plan?.name ?? '' })}
      message={t('grant.message')}
      confirmLabel={t('grant.confirm')}
      cancelLabel={t('form.cancel')}
      busy={grant.isPending}
      onConfirm={confirm}
      onClose={close}
      destructive={false}
      testId="plan-grant-dialog"
      confirmTestId="plan-grant-confirm"
      cancelTestId="plan-grant-cancel"
    >
      <TextField
        fullWidth
        autoFocus
        sx={{ mt: 2 }}
        label={t('grant.user')}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          grant.reset();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') confirm();
        }}
        error={touched && target === null}
        helperText={touched && target === null ? t('grant.userRequired') : t('grant.userHint')}
        slotProps={{ htmlInput: { 'data-testid': 'plan-grant-user' } }}
      />
      {failure && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="plan-grant-error">
          {failure}
        </Alert>
      )}
    </ConfirmDialog>
  );
}
