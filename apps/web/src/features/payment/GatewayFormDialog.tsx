import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  PAYMENT_CURRENCIES,
  PAYMENT_GATEWAY_TYPES,
  type PaymentGatewayBody,
  type PaymentGatewayType,
  type PaymentGatewayView,
} from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { useCheckedForm } from '../../components/form/checkedForm.js';
import { dialogButtons } from '../../components/form/dialogButtons.js';
import { FormSwitchField, FormTextField, useFormBinding } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { FormSection } from '../../components/form/FormSection.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useWords } from '../../i18n/useWords.js';
import { notify } from '../../lib/notify.js';
import { GatewayConfigFields } from './GatewayConfigFields.js';
import {
  defaultConfig,
  emptyGatewayForm,
  type GatewayFormValues,
  gatewayToForm,
  parseConfig,
  validateGatewayForm,
} from './gatewayForm.js';
import { useCreatePaymentGateway, useUpdatePaymentGateway } from './payment.api.js';
import { useIsRoot } from './paymentRole.js';

interface GatewayFormProps {
  /** The gateway to edit; null to create one. */
  gateway: PaymentGatewayView | null;
  onClose(): void;
}

const testIds = (name: string) => ({ htmlInput: { 'data-testid': `payment-form-${name}` } });

function GatewayForm({ gateway, onClose }: GatewayFormProps) {
  const { t } = useTranslation('payment');
  const buttons = useWords('payment', 'formDialog');
  const storedFor = (type: PaymentGatewayType) => (gateway && type === gateway.type ? parseConfig(gateway.config) : {});
  const [initial] = useState<GatewayFormValues>(() => (gateway ? gatewayToForm(gateway) : emptyGatewayForm()));
  const form = useCheckedForm(initial, (checked) =>
    // Another type's stored settings mean nothing to the chosen one, so they are not carried over.
    validateGatewayForm(checked, storedFor(checked.type), (key, options) => t(key, options)),
  );
  const create = useCreatePaymentGateway();
  const update = useUpdatePaymentGateway({ silent: true });
  const saving = create.isPending || update.isPending;
  const { values, errors } = useFormBinding(form, saving);
  // An admin edits names, fees, order and on/off; the vendor settings are shown, read-only.
  const locked = !useIsRoot();
  const stored = storedFor(values.type);

  const setType = (type: PaymentGatewayType) => {
    form.setValue('type', type);
    form.setValue('config', type === gateway?.type ? initial.config : defaultConfig(type));
  };
  const setConfig = (name: string, value: string) => {
    form.setValue('config', { ...values.config, [name]: value });
    form.clearErrors(`config.${name}`);
  };

  const submit = (body: PaymentGatewayBody) => {
    const done = () => {
      notify.success(gateway ? t('notify.saved') : t('notify.created'));
      onClose();
    };
    if (gateway) update.mutate({ ...body, id: gateway.id, uuid: gateway.uuid }, { onSuccess: done });
    else create.mutate(body, { onSuccess: done });
  };

  return (
    <CheckedDialogForm
      form={form}
      onValid={submit}
      title={gateway ? t('form.editTitle', { name: gateway.name }) : t('form.createTitle')}
      onCancel={onClose}
      saving={saving}
      {...dialogButtons('payment-form', !gateway, buttons)}
    >
      <Stack spacing={3}>
        <FormProblem error={create.error ?? update.error} testId="payment-form-error" />
        <FormSection title={t('form.basicSection')}>
          <TextField
            select
            label={t('fields.type')}
            value={values.type}
            onChange={(event) => setType(event.target.value as PaymentGatewayType)}
            disabled={saving || gateway !== null}
            helperText={gateway ? t('form.typeLocked') : t('form.typeHint')}
            slotProps={testIds('type')}
          >
            {PAYMENT_GATEWAY_TYPES.map((type) => (
              <MenuItem key={type} value={type} data-testid={`payment-form-type-${type}`}>
                {t(`types.${type}`)}
              </MenuItem>
            ))}
          </TextField>
          <FormTextField<GatewayFormValues>
            name="name"
            label={t('fields.name')}
            hint={t('form.nameHint')}
            required
            slotProps={testIds('name')}
          />
          <FormTextField<GatewayFormValues>
            name="icon"
            label={t('fields.icon')}
            hint={t('form.iconHint')}
            required
            slotProps={testIds('icon')}
          />
          <FormTextField<GatewayFormValues>
            name="notify_domain"
            label={t('fields.notify_domain')}
            hint={locked ? t('form.rootOnly') : t('form.notifyDomainHint')}
            disabled={locked}
            slotProps={testIds('notify_domain')}
          />
        </FormSection>
        <GatewayConfigFields
          type={values.type}
          values={values.config}
          stored={stored}
          errors={errors}
          disabled={saving}
          locked={locked}
          onChange={setConfig}
        />
        <FormSection title={t('form.moneySection')}>
          <FormTextField<GatewayFormValues>
            select
            name="currency"
            label={t('fields.currency')}
            hint={t('form.currencyHint')}
            slotProps={testIds('currency')}
          >
            {PAYMENT_CURRENCIES.map((currency) => (
              <MenuItem key={currency} value={currency} data-testid={`payment-form-currency-${currency}`}>
                {currency}
              </MenuItem>
            ))}
          </FormTextField>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField<GatewayFormValues>
              name="percent_fee"
              type="number"
              label={t('fields.percent_fee')}
              hint={t('form.percentFeeHint')}
              fullWidth
              slotProps={{
                input: { endAdornment: <InputAdornment position="end">%</InputAdornment> },
                htmlInput: { min: 0, max: 100, step: 1, 'data-testid': 'payment-form-percent_fee' },
              }}
            />
            <FormTextField<GatewayFormValues>
              name="fixed_fee"
              type="number"
              label={t('fields.fixed_fee')}
              hint={t('form.fixedFeeHint')}
              fullWidth
              slotProps={{
                input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                htmlInput: { min: 0, step: 0.01, 'data-testid': 'payment-form-fixed_fee' },
              }}
            />
          </Stack>
          <FormTextField<GatewayFormValues>
            name="sort"
            type="number"
            label={t('fields.sort')}
            hint={t('form.sortHint')}
            slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'payment-form-sort' } }}
          />
          <FormSwitchField<GatewayFormValues> name="enable" label={t('fields.enable')} testId="payment-form-enable" />
        </FormSection>
      </Stack>
    </CheckedDialogForm>
  );
}

/** Create a gateway or edit one: its basics, fees, and the chosen type's settings with help. */
export const GatewayFormDialog = sessionFormDialog(GatewayForm, { testId: 'payment-dialog' });
