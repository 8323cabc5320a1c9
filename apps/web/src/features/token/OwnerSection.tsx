import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormSection } from '../../components/form/FormSection.js';
import { isApiError } from '../../lib/api.js';
import type { TokenRow } from './token.api.js';
import { ownerTransfer } from './tokenForm.js';

interface OwnerFieldState {
  value: string;
  /** This form's own complaint about the text. */
  error: string;
  /** The server refused the last save because of `user_id`. */
  refused: boolean;
  onChange(text: string): void;
}

/**
 * The owner field of another user's key (`managed`; null for one's own key, which has none).
 * `save` is the save mutation, whose refusal about `user_id` marks the field until it changes.
 */
export function useOwnerField(managed: TokenRow | null, save: { error: unknown; reset(): void }) {
  const { t } = useTranslation('token');
  const [value, setValue] = useState(managed ? String(managed.user_id) : '');
  const [error, setError] = useState('');
  const refused = isApiError(save.error) && save.error.field === 'user_id';
  const field: OwnerFieldState = {
    value,
    error,
    refused,
    onChange(text) {
      setValue(text);
      setError('');
      // A refused owner is being replaced: its refusal no longer applies.
      if (refused) save.reset();
    },
  };
  /** The transfer to send (none when the owner stays), or not ok with the field marked. */
  const check = () => {
    const transfer = managed ? ownerTransfer(value, managed.user_id) : { ok: true as const };
    if (!transfer.ok) setError(t('admin.ownerInvalid'));
    return transfer;
  };
  return { field, check };
}

interface OwnerSectionProps extends OwnerFieldState {
  token: TokenRow;
  disabled: boolean;
}

/** Administrators editing another user's key: whose it is, and the user id to move it to. */
export function OwnerSection({ token, value, error, refused, disabled, onChange }: OwnerSectionProps) {
  const { t } = useTranslation('token');
  const owner = token.owner_name || t('admin.ownerUnknown');
  // The server's message itself is shown above the form (FormProblem); the field points to it.
  const hint = refused ? t('admin.ownerRefused') : t('admin.ownerHint', { name: owner, id: token.user_id });
  return (
    <FormSection title={t('admin.ownerSection')} spacing={1.5}>
      <TextField
        name="user_id"
        label={t('admin.ownerField')}
        value={value}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, 16))}
        disabled={disabled}
        error={Boolean(error) || refused}
        helperText={error || hint}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'token-form-owner' } }}
      />
    </FormSection>
  );
}
