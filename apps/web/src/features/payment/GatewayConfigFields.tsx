import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { PaymentGatewayType } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { FormSection } from '../../components/form/FormSection.js';
import { type ConfigField, GATEWAY_CONFIG_FIELDS, type GatewayFormErrors, isRequired } from './gatewayForm.js';

interface ConfigFieldsProps {
  type: PaymentGatewayType;
  values: Record<string, string>;
  /** The masked secrets the gateway was stored with: left as they are, they keep the stored value. */
  stored: Record<string, string>;
  errors: GatewayFormErrors;
  disabled: boolean;
  /** Shown, not editable: only root may change a gateway's settings. */
  locked: boolean;
  onChange(name: string, value: string): void;
}

/**
 * A secret shows the server's mask as plain text (so the admin sees a key is set and which one),
 * and turns into a password field as soon as something else is typed.
 */
function inputType(field: ConfigField, value: string, stored: string | undefined): string {
  if (!field.secret || field.multiline) return 'text';
  return value !== '' && value === stored ? 'text' : 'password';
}

/** The settings of one gateway type (reference §4.10), each with where to find it in the vendor's console. */
export function GatewayConfigFields({ type, values, stored, errors, disabled, locked, onChange }: ConfigFieldsProps) {
  const { t } = useTranslation('payment');
  return (
    <FormSection title={t('form.configSection', { type: t(`types.${type}`) })}>
      {GATEWAY_CONFIG_FIELDS[type].map((field) => {
        const value = values[field.name] ?? '';
        const keeping = field.secret && stored[field.name] !== undefined && value === stored[field.name];
        const help = locked ? t('form.rootOnly') : keeping ? t('form.secretKept') : t(`help.${type}.${field.name}`);
        return (
          <TextField
            key={field.name}
            name={field.name}
            label={t(`fields.${field.name}`)}
            value={value}
            onChange={(event) => onChange(field.name, event.target.value)}
            // Selecting the mask on focus lets the admin type a new secret straight over it.
            onFocus={(event) => keeping && !locked && event.target.select()}
            select={field.options !== undefined}
            type={inputType(field, value, stored[field.name])}
            multiline={field.multiline && !keeping}
            minRows={field.multiline && !keeping ? 3 : undefined}
            maxRows={field.multiline ? 8 : undefined}
            required={isRequired(field, values)}
            disabled={disabled || locked}
            error={Boolean(errors[`config.${field.name}`])}
            helperText={errors[`config.${field.name}`] ?? help}
            autoComplete="off"
            slotProps={{
              htmlInput: { 'data-testid': `payment-form-config-${field.name}`, spellCheck: false },
              // '' is a real choice (Epay's cashier page), so it is shown, not taken for "no value".
              ...(field.options ? { inputLabel: { shrink: true }, select: { displayEmpty: true } } : {}),
            }}
          >
            {field.options?.map((option) => (
              <MenuItem
                key={option}
                value={option}
                data-testid={`payment-form-config-${field.name}-option-${option || 'default'}`}
              >
                {t(`options.${field.name}.${option || 'default'}`)}
              </MenuItem>
            ))}
          </TextField>
        );
      })}
    </FormSection>
  );
}
