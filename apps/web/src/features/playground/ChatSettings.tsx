import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { monospaceFontStack } from '../../theme/fonts.js';

export interface ChatModelOption {
  model: string;
  owner: string;
}

export interface ChatSettingsValue {
  model: string;
  system: string;
  temperature: number;
}

interface ChatSettingsProps {
  value: ChatSettingsValue;
  onChange(value: ChatSettingsValue): void;
  models: ChatModelOption[];
  loadingModels: boolean;
  disabled: boolean;
}

export const TEMPERATURE_MAX = 2;

/** Model, system prompt and temperature of the next request. */
export function ChatSettings({ value, onChange, models, loadingModels, disabled }: ChatSettingsProps) {
  const { t } = useTranslation('playground');
  const temperatureLabel = useId();
  const selected = models.find((option) => option.model === value.model) ?? null;
  const byOwner = [...models].sort(
    (left, right) => left.owner.localeCompare(right.owner) || left.model.localeCompare(right.model),
  );

  return (
    <Stack spacing={2.5}>
      <Autocomplete
        options={byOwner}
        value={selected}
        loading={loadingModels}
        disabled={disabled}
        disableClearable={selected !== null}
        groupBy={(option) => option.owner || t('otherModels')}
        getOptionLabel={(option) => option.model}
        isOptionEqualToValue={(option, chosen) => option.model === chosen.model}
        onChange={(_event, option) => option && onChange({ ...value, model: option.model })}
        loadingText={t('loadingModels')}
        noOptionsText={t('noModelMatch')}
        renderOption={({ key, ...props }, option) => (
          <Box
            component="li"
            key={key}
            {...props}
            data-testid={`playground-model-option-${option.model}`}
            sx={{ fontFamily: monospaceFontStack, fontSize: '0.8125rem' }}
          >
            {option.model}
          </Box>
        )}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('model')}
            size="small"
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'playground-model' },
            }}
          />
        )}
      />
      <TextField
        label={t('systemPrompt')}
        placeholder={t('systemPromptPlaceholder')}
        value={value.system}
        onChange={(event) => onChange({ ...value, system: event.target.value })}
        multiline
        minRows={3}
        maxRows={10}
        size="small"
        disabled={disabled}
        slotProps={{ htmlInput: { 'data-testid': 'playground-system' } }}
      />
      <Box>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography id={temperatureLabel} variant="body2" sx={{ fontWeight: 600 }}>
            {t('temperature')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
            {value.temperature.toFixed(1)}
          </Typography>
        </Stack>
        <Slider
          value={value.temperature}
          min={0}
          max={TEMPERATURE_MAX}
          step={0.1}
          size="small"
          disabled={disabled}
          onChange={(_event, next) => onChange({ ...value, temperature: Array.isArray(next) ? (next[0] ?? 1) : next })}
          slotProps={{
            input: { 'aria-labelledby': temperatureLabel, 'data-testid': 'playground-temperature' } as object,
          }}
        />
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mt: -0.5 }}>
          {t('temperatureHint')}
        </Typography>
      </Box>
    </Stack>
  );
}
