import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  PAYMENT_CURRENCIES,
  PAYMENT_GATEWAY_TYPES,
  type PaymentCurrency,
  type PaymentGatewayType,
  type PaymentGatewayView,
} from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm } from '../../components/FormDialog.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { FormSection } from '../../components/form/FormSection.js';
import { bindTextFields } from '../../components/form/fieldBinding.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { SwitchField } from '../../components/form/SwitchField.js';
import { useFormState } from '../../hooks/useFormState.js';
import { notify } from '../../lib/notify.js';
import { GatewayConfigFields } from './GatewayConfigFields.js';
import {
  defaultConfig,
  emptyGatewayForm,
  type GatewayFormField,
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
  const [initial] = useState<GatewayFormValues>(() => (gateway ? gatewayToForm(gateway) : emptyGatewayForm()));
  const form = useFormState<GatewayFormValues, GatewayFormField>(initial);
  const { values } = form;
  const create = useCreatePaymentGateway();
  const update = useUpdatePaymentGateway({ silent: true });
  const saving = create.isPending || update.isPending;
  const bind = bindTextFields({ ...form, disabled: saving });
  // An admin edits names, fees, order and on/off; the vendor settings are shown, read-only.
  const locked = !useIsRoot();
  // Another type's stored settings mean nothing to the chosen one, so they are not carried over.
  const stored = gateway && values.type === gateway.type ? parseConfig(gateway.config) : {};

  const setType = (type: PaymentGatewayType) =>
    form.setValues({ ...values, type, config: type === gateway?.type ? initial.config : defaultConfig(type) });
  const setConfig = (name: string, value: string) => {
    form.change('config', { ...values.config, [name]: value });
    form.setErrors((current) => ({ ...current, [`config.${name}`]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.accept(validateGatewayForm(values, stored, (key, options) => t(key, options)));
    if (!body) return;
    const done = () => {
      notify.success(gateway ? t('notify.saved') : t('notify.created'));
      onClose();
    };
    if (gateway) update.mutate({ ...body, id: gateway.id, uuid: gateway.uuid }, { onSuccess: done });
    else create.mutate(body, { onSuccess: done });
  };

  return (
    <DialogForm
      onSubmit={submit}
      testId="payment-form"
      title={gateway ? t('form.editTitle', { name: gateway.name }) : t('form.createTitle')}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('form.cancel')}
      submitLabel={gateway ? t('form.save') : t('form.create')}
      cancelTestId="payment-form-cancel"
      submitTestId="payment-form-submit"
    >
      <Stack spacing={3}>
        <FormProblem error={create.error ?? update.error} unplaced={form.unplaced} testId="payment-form-error" />
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
          <TextField
            label={t('fields.name')}
            {...bind('name', t('form.nameHint'))}
            required
            slotProps={testIds('name')}
          />
          <TextField label={t('fields.icon')} {...bind('icon', t('form.iconHint'))} slotProps={testIds('icon')} />
          <TextField
            label={t('fields.notify_domain')}
            {...bind('notify_domain', locked ? t('form.rootOnly') : t('form.notifyDomainHint'))}
            disabled={saving || locked}
            slotProps={testIds('notify_domain')}
          />
        </FormSection>
        <GatewayConfigFields
          type={values.type}
          values={values.config}
          stored={stored}
          errors={form.errors}
          disabled={saving}
          locked={locked}
          onChange={setConfig}
        />
        <FormSection title={t('form.moneySection')}>
          <TextField
            select
            label={t('fields.currency')}
            value={values.currency}
            onChange={(event) => form.change('currency', event.target.value as PaymentCurrency)}
            disabled={saving}
            helperText={t('form.currencyHint')}
            slotProps={testIds('currency')}
          >
            {PAYMENT_CURRENCIES.map((currency) => (
              <MenuItem key={currency} value={currency} data-testid={`payment-form-currency-${currency}`}>
                {currency}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              type="number"
              label={t('fields.percent_fee')}
              {...bind('percent_fee', t('form.percentFeeHint'))}
              fullWidth
              slotProps={{
                input: { endAdornment: <InputAdornment position="end">%</InputAdornment> },
                htmlInput: { min: 0, max: 100, step: 1, 'data-testid': 'payment-form-percent_fee' },
              }}
            />
            <TextField
              type="number"
              label={t('fields.fixed_fee')}
              {...bind('fixed_fee', t('form.fixedFeeHint'))}
              fullWidth
              slotProps={{
                input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                htmlInput: { min: 0, step: 0.01, 'data-testid': 'payment-form-fixed_fee' },
              }}
            />
          </Stack>
          <TextField
            type="number"
            label={t('fields.sort')}
            {...bind('sort', t('form.sortHint'))}
            slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'payment-form-sort' } }}
          />
          <SwitchField
            label={t('fields.enable')}
            checked={values.enable}
            onChange={(enable) => form.change('enable', enable)}
            disabled={saving}
            testId="payment-form-enable"
          />
        </FormSection>
      </Stack>
    </DialogForm>
  );
}

/** Create a gateway or edit one: its basics, fees, and the chosen type's settings with help. */
export const GatewayFormDialog = sessionFormDialog(GatewayForm, { testId: 'payment-dialog' });
