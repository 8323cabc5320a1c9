import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { PRICE_TYPES, type PriceType } from '@one-hub/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OwnerAvatar } from '../../components/OwnerAvatar.js';
import type { ExtraRatioRow, PriceFieldValues, PriceFormErrors } from './priceForm.js';
import { unusedExtraKinds } from './priceForm.js';
import { formatPriceUsd, type OwnerOption, usdPrice } from './priceTable.js';

export interface PriceFieldsProps {
  values: PriceFieldValues;
  errors: PriceFormErrors;
  change<Key extends keyof PriceFieldValues>(field: Key, value: PriceFieldValues[Key]): void;
  disabled: boolean;
  owners: readonly OwnerOption[];
}

export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack spacing={2}>
      <Typography variant="overline" sx={{ color: 'text.secondary', lineHeight: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

/** What the typed multiplier costs, shown under the field while typing. */
function usePriceHint(values: PriceFieldValues, side: 'input' | 'output'): string {
  const { t } = useTranslation('pricing');
  const value = Number(values[side]);
  if (values[side].trim() === '' || !Number.isFinite(value) || value < 0) return t('form.ratioHint');
  if (values.type === 'times') {
    if (side === 'output') return t('form.outputTimesHint');
    const usd = usdPrice({ type: 'times', input: value, output: 0 });
    return usd.type === 'times' ? t('perCall', { price: formatPriceUsd(usd.perCall) }) : '';
  }
  const usd = usdPrice({ type: 'tokens', input: value, output: value });
  if (usd.type !== 'tokens') return '';
  return `${t('perThousand', { price: formatPriceUsd(usd.input.perThousand) })} · ${t('perMillion', { price: formatPriceUsd(usd.input.perMillion) })}`;
}

function OwnerField({ values, errors, change, disabled, owners }: PriceFieldsProps) {
  const { t } = useTranslation('pricing');
  const known = owners.find((owner) => owner.id === values.channelType);
  // A stored price may name an id nobody registers (any more); keep it selectable as it is.
  const selected =
    known ??
    (values.channelType === null
      ? null
      : { id: values.channelType, name: t('unknownOwner', { id: values.channelType }), icon: '', custom: false });
  const options = known || !selected ? owners : [...owners, selected];
  return (
    <Autocomplete
      options={options as OwnerOption[]}
      value={selected}
      onChange={(_event, owner) => change('channelType', owner?.id ?? null)}
      getOptionLabel={(owner) => (owner === selected && !known ? owner.name : `${owner.name} (#${owner.id})`)}
      isOptionEqualToValue={(option, value) => option.id === value.id}
      disabled={disabled}
      renderOption={({ key, ...props }, owner) => (
        <Box component="li" key={key} {...props} data-testid={`pricing-form-channel-type-option-${owner.id}`}>
          <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
            <OwnerAvatar name={owner.name} icon={owner.icon} />
            <span>{owner.name}</span>
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              #{owner.id}
            </Typography>
          </Stack>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('form.channelType')}
          required
          error={Boolean(errors.channelType)}
          helperText={errors.channelType ?? t('form.channelTypeHint')}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'pricing-form-channel-type' },
          }}
        />
      )}
    />
  );
}

function ExtraRatios({ values, errors, change, disabled }: PriceFieldsProps) {
  const { t } = useTranslation('pricing');
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const rows = values.extraRatios;
  const unused = unusedExtraKinds(rows);
  const setRow = (index: number, row: ExtraRatioRow) =>
    change(
      'extraRatios',
      rows.map((current, position) => (position === index ? row : current)),
    );
  return (
    <Stack spacing={1.25}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('form.extraRatiosHint')}
      </Typography>
      {rows.map((row, index) => (
        <Stack key={row.kind} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField
            size="small"
            value={t(`extraKinds.${row.kind}`, { defaultValue: row.kind })}
            disabled
            sx={{ flex: 2 }}
          />
          <TextField
            size="small"
            type="number"
            value={row.ratio}
            onChange={(event) => setRow(index, { ...row, ratio: event.target.value })}
            disabled={disabled}
            sx={{ flex: 1 }}
            slotProps={{
              htmlInput: { min: 0, step: 'any', 'aria-label': t('form.extraRatioValue', { kind: row.kind }) },
            }}
          />
          <IconButton
            aria-label={t('form.removeExtraRatio')}
            onClick={() =>
              change(
                'extraRatios',
                rows.filter((_, position) => position !== index),
              )
            }
            disabled={disabled}
            size="small"
          >
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Stack>
      ))}
      {errors.extraRatios && <FormHelperText error>{errors.extraRatios}</FormHelperText>}
      <Box>
        <Button
          size="small"
          startIcon={<Add />}
          disabled={disabled || unused.length === 0}
          onClick={(event) => setMenu(event.currentTarget)}
        >
          {t('form.addExtraRatio')}
        </Button>
        <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
          {unused.map((kind) => (
            <MenuItem
              key={kind}
              onClick={() => {
                change('extraRatios', [...rows, { kind, ratio: '1' }]);
                setMenu(null);
              }}
            >
              {t(`extraKinds.${kind}`, { defaultValue: kind })}
            </MenuItem>
          ))}
        </Menu>
      </Box>
    </Stack>
  );
}

/** The price itself: owner, billing type, input and output multipliers, lock and extra ratios. */
export function PriceFields(props: PriceFieldsProps) {
  const { t } = useTranslation('pricing');
  const { values, errors, change, disabled } = props;
  const inputHint = usePriceHint(values, 'input');
  const outputHint = usePriceHint(values, 'output');
  return (
    <>
      <FormSection title={t('form.priceSection')}>
        <OwnerField {...props} />
        <Box>
          <ToggleButtonGroup
            exclusive
            fullWidth
            size="small"
            color="primary"
            value={values.type}
            onChange={(_event, type: PriceType | null) => type && change('type', type)}
            disabled={disabled}
            aria-label={t('form.type')}
          >
            {PRICE_TYPES.map((type) => (
              <ToggleButton key={type} value={type} data-testid={`pricing-form-type-${type}`}>
                {t(`type.${type}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <FormHelperText error={Boolean(errors.type)} sx={{ mx: 1.75 }}>
            {errors.type ?? t(`form.typeHint.${values.type}`)}
          </FormHelperText>
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label={t('form.input')}
            type="number"
            value={values.input}
            onChange={(event) => change('input', event.target.value)}
            error={Boolean(errors.input)}
            helperText={errors.input ?? inputHint}
            disabled={disabled}
            required
            fullWidth
            slotProps={{
              htmlInput: { min: 0, step: 'any', 'data-testid': 'pricing-form-input' },
              formHelperText: { 'data-testid': 'pricing-form-input-hint' } as object,
            }}
          />
          <TextField
            label={t('form.output')}
            type="number"
            value={values.output}
            onChange={(event) => change('output', event.target.value)}
            error={Boolean(errors.output)}
            helperText={errors.output ?? outputHint}
            disabled={disabled || values.type === 'times'}
            required={values.type === 'tokens'}
            fullWidth
            slotProps={{
              htmlInput: { min: 0, step: 'any', 'data-testid': 'pricing-form-output' },
              formHelperText: { 'data-testid': 'pricing-form-output-helper' } as object,
            }}
          />
        </Stack>
        <FormControlLabel
          control={
            <Switch
              checked={values.locked}
              onChange={(event) => change('locked', event.target.checked)}
              disabled={disabled}
              slotProps={{ input: { 'data-testid': 'pricing-form-locked' } as object }}
            />
          }
          label={
            <Box>
              <Typography variant="body2">{t('form.locked')}</Typography>
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {t('form.lockedHint')}
              </Typography>
            </Box>
          }
        />
      </FormSection>
      <FormSection title={t('form.extraSection')}>
        <ExtraRatios {...props} />
      </FormSection>
    </>
  );
}
