import Visibility from '@mui/icons-material/Visibility';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ProviderExtraFieldView, ProviderView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { FormSection } from '../../components/form/FormSection.js';
import { type ChannelFormMode, CODE_EXAMPLES, keyLineCount } from './channelForm.js';
import { FieldText, JsonField, type SectionProps, testIdOf } from './FormParts.js';

export function BasicSection({
  providers,
  groups,
  tags,
  ...props
}: SectionProps & { providers: ProviderView[]; groups: string[]; tags: string[] }) {
  const { t } = useTranslation('channel');
  const { values, errors, change, disabled, mode } = props;
  const selected = providers.find((provider) => provider.type === values.type) ?? null;
  return (
    <FormSection title={t('form.basicSection')} columns>
      <Autocomplete
        options={providers}
        value={selected}
        disabled={disabled || mode === 'tag'}
        disableClearable={selected !== null}
        onChange={(_event, provider) => change('type', provider?.type ?? 0)}
        getOptionLabel={(provider) => provider.name}
        isOptionEqualToValue={(option, value) => option.type === value.type}
        renderOption={(optionProps, provider) => {
          const { key, ...rest } = optionProps;
          return (
            <li key={key} {...rest} data-testid={`channel-form-type-${provider.type}`}>
              <Box sx={{ flex: 1 }}>{provider.name}</Box>
              <Typography variant="caption" sx={{ color: 'text.secondary', ml: 1 }}>
                {provider.type}
              </Typography>
            </li>
          );
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('form.type')}
            required
            error={Boolean(errors.type)}
            helperText={errors.type ?? (mode === 'tag' ? t('form.typeTagHint') : undefined)}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, ...testIdOf('channel-form-type') },
            }}
          />
        )}
      />
      <FieldText
        {...props}
        field="name"
        label={t('form.name')}
        required={mode !== 'tag'}
        hint={mode === 'tag' ? t('form.nameTagHint') : mode === 'create' ? t('form.nameHint') : undefined}
      />
      <Autocomplete
        multiple
        options={[...new Set([...groups, ...values.group])]}
        value={values.group}
        disabled={disabled}
        filterSelectedOptions
        onChange={(_event, next) => change('group', next)}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('form.group')}
            required
            error={Boolean(errors.group)}
            helperText={errors.group ?? t('form.groupHint')}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, ...testIdOf('channel-form-group') },
            }}
          />
        )}
      />
      <Autocomplete
        freeSolo
        autoSelect
        options={tags}
        inputValue={values.tag}
        disabled={disabled}
        onInputChange={(_event, text) => change('tag', text)}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('form.tag')}
            error={Boolean(errors.tag)}
            helperText={errors.tag ?? (mode === 'tag' ? t('form.tagRenameHint') : t('form.tagHint'))}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, ...testIdOf('channel-form-tag') },
            }}
          />
        )}
      />
    </FormSection>
  );
}

function keyHint(mode: ChannelFormMode, key: string, t: (key: string, values?: Record<string, unknown>) => string) {
  if (mode === 'edit') return t('channel:form.keyEditHint');
  if (mode === 'tag') return t('channel:form.keyTagHint', { count: keyLineCount(key) });
  const lines = keyLineCount(key);
  return lines > 1 ? t('channel:form.keyCreateMany', { count: lines }) : t('channel:form.keyCreateHint');
}

/** Settings a channel type adds, as `/api/providers` describes them. */
function ExtraField({
  field,
  provider,
  ...props
}: SectionProps & { field: ProviderExtraFieldView; provider: ProviderView }) {
  const { t } = useTranslation('channel');
  const { values, errors, change, disabled } = props;
  const label = t(`extra.${provider.slug}.${field.name}`, { defaultValue: field.label });
  if (field.name === 'plugin') {
    return (
      <JsonField {...props} field="plugin" label={label} hint={t('form.pluginHint')} placeholder={field.placeholder} />
    );
  }
  if (field.kind === 'select' && field.options) {
    return (
      <TextField
        select
        name="other"
        label={label}
        value={values.other}
        onChange={(event) => change('other', event.target.value)}
        error={Boolean(errors.other)}
        helperText={errors.other}
        required={field.required}
        disabled={disabled}
        fullWidth
        slotProps={{
          select: { displayEmpty: true },
          inputLabel: { shrink: true },
          htmlInput: testIdOf('channel-form-other'),
        }}
      >
        <MenuItem value="">{t('form.providerDefault', { value: field.placeholder ?? '' })}</MenuItem>
        {field.options.map((option) => (
          <MenuItem key={option} value={option}>
            {option}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  return (
    <FieldText
      {...props}
      field="other"
      label={label}
      required={field.required}
      placeholder={field.placeholder}
      hint={field.required ? undefined : t('form.optional')}
    />
  );
}

export function ConnectionSection({ onRevealKey, ...props }: SectionProps & { onRevealKey?: () => void }) {
  const { t } = useTranslation('channel');
  const { values, mode, provider } = props;
  const baseUrlHint = provider?.base_url_required
    ? t('form.baseUrlRequiredHint')
    : provider?.default_base_url
      ? t('form.baseUrlDefault', { url: provider.default_base_url })
      : t('form.optional');
  return (
    <FormSection title={t('form.connectionSection')}>
      <FieldText
        {...props}
        field="base_url"
        label={t('form.baseUrl')}
        required={provider?.base_url_required}
        placeholder={provider?.default_base_url || CODE_EXAMPLES.baseUrl}
        hint={mode === 'create' ? `${baseUrlHint} ${t('form.baseUrlLines')}` : baseUrlHint}
        multiline={mode === 'create'}
      />
      <FieldText
        {...props}
        field="key"
        label={t('form.key')}
        required={mode !== 'edit'}
        multiline
        minRows={mode === 'edit' ? 1 : 3}
        placeholder={provider?.key_hint}
        monospaced
        hint={keyHint(mode, values.key, t)}
        end={
          onRevealKey && !values.key ? (
            <Button
              size="small"
              startIcon={<Visibility fontSize="small" />}
              onClick={onRevealKey}
              sx={{ flexShrink: 0 }}
              data-testid="channel-form-reveal-key"
            >
              {t('form.revealKey')}
            </Button>
          ) : undefined
        }
      />
      {provider?.extra_fields.map((field) => (
        <ExtraField key={field.name} field={field} {...props} provider={provider} />
      ))}
      <FieldText
        {...props}
        field="proxy"
        label={t('form.proxy')}
        placeholder={CODE_EXAMPLES.proxy}
        hint={t('form.proxyHint')}
      />
    </FormSection>
  );
}

export function TestModelField({ options, ...props }: SectionProps & { options: string[] }) {
  const { t } = useTranslation('channel');
  const { values, errors, change, disabled } = props;
  return (
    <Autocomplete
      freeSolo
      autoSelect
      options={options.filter((model) => !model.includes('*'))}
      inputValue={values.test_model}
      disabled={disabled}
      onInputChange={(_event, text) => change('test_model', text)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('form.testModel')}
          error={Boolean(errors.test_model)}
          helperText={errors.test_model ?? t('form.testModelHint')}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, ...testIdOf('channel-form-test-model') },
          }}
        />
      )}
    />
  );
}

export function RoutingSection(props: SectionProps) {
  const { t } = useTranslation('channel');
  return (
    <FormSection title={t('form.routingSection')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FieldText {...props} field="priority" label={t('form.priority')} type="number" hint={t('form.priorityHint')} />
        <FieldText {...props} field="weight" label={t('form.weight')} type="number" hint={t('form.weightHint')} />
      </Stack>
    </FormSection>
  );
}
