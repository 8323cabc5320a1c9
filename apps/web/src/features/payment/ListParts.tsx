import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../../components/ListEmptyState.js';

interface FilterSelectProps<Value extends string> {
  label: string;
  /** '' = no filter, shown as `anyLabel`. */
  value: Value | '';
  options: readonly Value[];
  labelOf(option: Value): string;
  anyLabel: string;
  onChange(value: Value | ''): void;
  testId: string;
  width: number;
}

/** A toolbar select whose empty choice means "any", its label kept up so "any" reads as a value. */
export function FilterSelect<Value extends string>(props: FilterSelectProps<Value>) {
  const { label, value, options, labelOf, anyLabel, onChange, testId, width } = props;
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as Value | '')}
      fullWidth={false}
      sx={{ width, flexShrink: 0 }}
      slotProps={{
        inputLabel: { shrink: true },
        select: { displayEmpty: true },
        htmlInput: { 'data-testid': testId },
      }}
    >
      <MenuItem value="">{anyLabel}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option} value={option}>
          {labelOf(option)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Why a tab's first page did not load, with a retry. */
export function ListLoadFailed({ title, onRetry, testId }: { title: string; onRetry(): void; testId: string }) {
  const { t } = useTranslation('payment');
  return (
    <ListEmptyState
      icon={ErrorOutlineOutlined}
      title={title}
      description={t('errorDescription')}
      action={<Button onClick={onRetry}>{t('common:retry')}</Button>}
      testId={testId}
    />
  );
}
