import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { TOKEN_NAME_MAX_LENGTH, type TokenView } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm, FormDialog } from '../../components/FormDialog.js';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { describeError } from '../../lib/notify.js';
import { ExpirySection, FormSection, GroupSection, LimitsSection, QuotaSection } from './TokenFormFields.js';
import { useSaveToken } from './token.api.js';
import {
  emptyTokenForm,
  type TokenFormErrors,
  type TokenFormValues,
  tokenToForm,
  validateTokenForm,
} from './tokenForm.js';

interface TokenFormDialogProps {
  /** The key to edit; null to create one. */
  token: TokenView | null;
  onClose(): void;
  /** After a successful save; a new key comes back with its full key. */
  onSaved(token: TokenView, created: boolean): void;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function TokenForm({ token, onClose, onSaved }: TokenFormDialogProps) {
  const { t } = useTranslation('token');
  const [values, setValues] = useState<TokenFormValues>(() =>
    token ? tokenToForm(token, nowSeconds()) : emptyTokenForm(nowSeconds()),
  );
  const [errors, setErrors] = useState<TokenFormErrors>({});
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const groups = useUserGroupMap();
  const save = useSaveToken();
  const saving = save.isPending;

  const change = <Key extends keyof TokenFormValues>(field: Key, value: TokenFormValues[Key]) => {
    setValues((current) => ({ ...current, [field]: value }));
    const cleared = field === 'neverExpires' ? 'expiresAt' : field === 'unlimitedQuota' ? 'remainQuota' : field;
    setErrors((current) => ({ ...current, [cleared]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateTokenForm(values, token?.id ?? null, nowSeconds(), (key, options) => t(key, options));
    if (!result.ok) {
      setErrors(result.errors);
      setUnplaced(result.unplaced);
      return;
    }
    setUnplaced([]);
    save.mutate(result.body, { onSuccess: (saved) => onSaved(saved, token === null) });
  };

  const sectionProps = { values, errors, change, disabled: saving };
  return (
    <DialogForm
      onSubmit={submit}
      testId="token-form"
      title={token ? t('form.editTitle') : t('form.createTitle')}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('form.cancel')}
      submitLabel={token ? t('form.save') : t('form.create')}
      cancelTestId="token-form-cancel"
      submitTestId="token-form-submit"
    >
      <Stack spacing={3}>
        {(save.isError || unplaced.length > 0) && (
          <Alert severity="error" data-testid="token-form-error">
            {save.isError ? describeError(save.error) : unplaced.join(' ')}
          </Alert>
        )}
        <FormSection title={t('form.basicSection')}>
          <TextField
            name="name"
            label={t('form.name')}
            value={values.name}
            onChange={(event) => change('name', event.target.value)}
            error={Boolean(errors.name)}
            helperText={
              errors.name ?? t('form.nameHint', { length: values.name.trim().length, max: TOKEN_NAME_MAX_LENGTH })
            }
            disabled={saving}
            autoFocus
            required
            slotProps={{ htmlInput: { 'data-testid': 'token-form-name' } }}
          />
        </FormSection>
        <QuotaSection {...sectionProps} />
        <ExpirySection {...sectionProps} />
        <GroupSection {...sectionProps} groups={Object.values(groups.data ?? {})} />
        <LimitsSection {...sectionProps} />
      </Stack>
    </DialogForm>
  );
}

/**
 * Create or edit a key; every field is checked with the server's schema before sending.
 * `session` changes on every opening, so the form starts afresh; it stays mounted while closing.
 */
export function TokenFormDialog({
  open,
  session,
  ...props
}: TokenFormDialogProps & { open: boolean; session: number | null }) {
  return (
    <FormDialog open={open} onClose={props.onClose} testId="token-dialog">
      {session !== null && <TokenForm key={session} {...props} />}
    </FormDialog>
  );
}
