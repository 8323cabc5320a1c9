import Stack from '@mui/material/Stack';
import { isReliableRole, TOKEN_NAME_MAX_LENGTH, type TokenView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { FallbacksEditor } from '../../components/fallbacks/FallbacksEditor.js';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { useCheckedForm } from '../../components/form/checkedForm.js';
import { dialogButtons } from '../../components/form/dialogButtons.js';
import { FormTextField, useFormBinding } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { FormSection } from '../../components/form/FormSection.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useSession } from '../../hooks/useSession.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { useWords } from '../../i18n/useWords.js';
import { quotaUnitOf } from '../../lib/quotaAmount.js';
import { OwnerSection, useOwnerField } from './OwnerSection.js';
import { TokenBudgetSection } from './TokenBudgetSection.js';
import { ExpirySection, GroupSection, LimitsSection, QuotaSection } from './TokenFormFields.js';
import { type TokenRow, useSaveToken } from './token.api.js';
import { emptyTokenForm, type TokenFormValues, tokenToForm, validateTokenForm } from './tokenForm.js';

interface TokenFormDialogProps {
  /** The key to edit; null to create one. */
  token: TokenRow | null;
  /** The key is another user's, from the administrators' list: saved through `PUT /api/token/admin`. */
  admin?: boolean;
  onClose(): void;
  /** After a successful save; a new key comes back with its full key. */
  onSaved(token: TokenView, created: boolean): void;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function TokenForm({ token, admin = false, onClose, onSaved }: TokenFormDialogProps) {
  const { t } = useTranslation('token');
  const buttons = useWords('token', 'formDialog');
  // Quota is typed in the unit the balance dialog uses: US$ when the site shows currency.
  const unit = quotaUnitOf(useSiteInfo());
  const form = useCheckedForm(
    () => (token ? tokenToForm(token, nowSeconds(), unit) : emptyTokenForm(nowSeconds(), unit)),
    (values: TokenFormValues) =>
      validateTokenForm(values, token?.id ?? null, nowSeconds(), (key, options) => t(key, options), unit),
  );
  const groups = useUserGroupMap();
  const billingTag = isReliableRole(useSession().user?.role);
  const managed = admin && token !== null ? token : null;
  const save = useSaveToken(managed !== null);
  const saving = save.isPending;
  const owner = useOwnerField(managed, save);
  const sectionProps = useFormBinding(
    form,
    saving,
    // A switch that locks a field takes that field's message away.
    (field) => [field === 'neverExpires' ? 'expiresAt' : field === 'unlimitedQuota' ? 'remainQuota' : field],
  );
  const { values } = sectionProps;

  return (
    <CheckedDialogForm
      form={form}
      // The owner is checked apart from the form (it is only there for another user's key), and
      // always, so both the form's and the owner's messages show at once.
      onSubmit={(event) => {
        const transfer = owner.check();
        return form.handleSubmit((body) => {
          if (!transfer.ok) return;
          // Only a changed owner is sent: `user_id` is what moves the key.
          const sent = transfer.userId === undefined ? body : { ...body, user_id: transfer.userId };
          save.mutate(sent, { onSuccess: (saved) => onSaved(saved, token === null) });
        })(event);
      }}
      title={token ? t('form.editTitle') : t('form.createTitle')}
      onCancel={onClose}
      saving={saving}
      {...dialogButtons('token-form', !token, buttons)}
    >
      <Stack spacing={3}>
        <FormProblem error={save.error} testId="token-form-error" />
        <FormSection title={t('form.basicSection')} spacing={1.5}>
          <FormTextField<TokenFormValues>
            name="name"
            label={t('form.name')}
            hint={t('form.nameHint', { length: values.name.trim().length, max: TOKEN_NAME_MAX_LENGTH })}
            autoFocus
            required
            slotProps={{ htmlInput: { 'data-testid': 'token-form-name' } }}
          />
        </FormSection>
        {managed && <OwnerSection token={managed} {...owner.field} disabled={saving} />}
        <QuotaSection {...sectionProps} />
        <TokenBudgetSection tokenId={token && !managed ? token.id : null} />
        <ExpirySection {...sectionProps} />
        <GroupSection {...sectionProps} groups={Object.values(groups.data ?? {})} billingTag={billingTag} />
        <LimitsSection {...sectionProps} />
        <FormSection title={t('fallback:section')}>
          <FallbacksEditor testId="token-form-fallbacks" hint={t('fallback:hints.key')} />
        </FormSection>
      </Stack>
    </CheckedDialogForm>
  );
}

/**
 * Create or edit a key; every field is checked with the server's schema before sending.
 * `session` changes on every opening, so the form starts afresh; it stays mounted while closing.
 */
export const TokenFormDialog = sessionFormDialog(TokenForm, { testId: 'token-dialog' });
