import CloudDownloadOutlined from '@mui/icons-material/CloudDownloadOutlined';
import PlaylistAddOutlined from '@mui/icons-material/PlaylistAddOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { modelEntryProblem } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';

interface ModelsFieldProps {
  value: string[];
  onChange(models: string[]): void;
  /** Suggestions: the price table's models and those fetched from the provider. */
  options: string[];
  error?: string;
  disabled: boolean;
  onFetch(): void;
  fetching: boolean;
  onFillPriced(): void;
  pricedCount: number;
}

/** Splits pasted text ("a, b\nc") into model names. */
function splitPasted(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The model list: chips with free entry (wildcards like `gpt-4*` allowed at the end), and two fillers. */
export function ModelsField({
  value,
  onChange,
  options,
  error,
  disabled,
  onFetch,
  fetching,
  onFillPriced,
  pricedCount,
}: ModelsFieldProps) {
  const { t } = useTranslation('channel');
  return (
    <Stack spacing={1}>
      <Autocomplete
        multiple
        freeSolo
        disableCloseOnSelect
        filterSelectedOptions
        autoSelect
        options={options}
        value={value}
        disabled={disabled}
        onChange={(_event, next) => onChange([...new Set(next.flatMap((entry) => splitPasted(entry)))])}
        limitTags={24}
        renderValue={(models, getItemProps) =>
          models.map((model, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            const bad = modelEntryProblem(model) !== undefined;
            return (
              <Chip
                key={key}
                size="small"
                label={model}
                color={bad ? 'error' : model.endsWith('*') ? 'primary' : 'default'}
                variant={bad || model.endsWith('*') ? 'outlined' : 'filled'}
                {...itemProps}
              />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('form.models')}
            required
            error={Boolean(error)}
            helperText={error ?? t('form.modelsHint')}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'channel-form-models' },
            }}
          />
        )}
      />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<CloudDownloadOutlined />}
          onClick={onFetch}
          loading={fetching}
          disabled={disabled}
          data-testid="channel-form-fetch-models"
        >
          {t('form.fetchModels')}
        </Button>
        <Button
          size="small"
          variant="outlined"
          startIcon={<PlaylistAddOutlined />}
          onClick={onFillPriced}
          disabled={disabled || pricedCount === 0}
          data-testid="channel-form-fill-priced"
        >
          {t('form.fillPriced', { count: pricedCount })}
        </Button>
        <Button
          size="small"
          color="inherit"
          onClick={() => onChange([])}
          disabled={disabled || value.length === 0}
          data-testid="channel-form-clear-models"
        >
          {t('form.clearModels')}
        </Button>
      </Stack>
    </Stack>
  );
}
