import DateRangeOutlined from '@mui/icons-material/DateRangeOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { ANALYTICS_MAX_DAYS } from '@one-hub/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompact } from '../../hooks/useCompact.js';
import { type DayRange, PERIOD_PRESETS, type Period, type PeriodPreset, presetRange, rangeErrors } from './period.js';

interface PeriodPickerProps {
  period: Period;
  onChange(period: Period): void;
}

/** Today, 7 days, 30 days, this month, or two dates; the chosen days are spelled out beside it. */
export function PeriodPicker({ period, onChange }: PeriodPickerProps) {
  const { t } = useTranslation('analytics');
  const compact = useCompact('sm');
  const [customOpen, setCustomOpen] = useState(period.preset === 'custom');
  const [draft, setDraft] = useState<DayRange>({ from: period.from, to: period.to });
  const [touched, setTouched] = useState(false);
  // The URL is the source of truth: back/forward navigation refills the dates.
  useEffect(() => {
    setDraft({ from: period.from, to: period.to });
    setCustomOpen(period.preset === 'custom');
  }, [period]);

  const errors = touched ? rangeErrors(draft) : {};
  const choose = (preset: PeriodPreset | null) => {
    if (!preset) return;
    if (preset === 'custom') {
      setCustomOpen(true);
      setTouched(false);
      return;
    }
    setCustomOpen(false);
    onChange({ preset, ...presetRange(preset) });
  };
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    const found = rangeErrors(draft);
    if (found.from || found.to) return;
    onChange({ preset: 'custom', ...draft });
  };
  const errorText = (error: string | undefined) =>
    error ? t(`period.errors.${error}`, { max: ANALYTICS_MAX_DAYS }) : undefined;

  return (
    <Box data-testid="analytics-period">
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', md: 'center' }, justifyContent: 'space-between' }}
      >
        {compact ? (
          <TextField
            select
            size="small"
            label={t('period.label')}
            value={customOpen ? 'custom' : period.preset}
            onChange={(event) => choose(event.target.value as PeriodPreset)}
            slotProps={{ select: { inputProps: { 'data-testid': 'analytics-period-select' } } }}
          >
            {PERIOD_PRESETS.map((preset) => (
              <MenuItem key={preset} value={preset}>
                {t(`period.presets.${preset}`)}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={customOpen ? 'custom' : period.preset}
            onChange={(_event, next: PeriodPreset | null) => choose(next)}
            aria-label={t('period.label')}
          >
            {PERIOD_PRESETS.map((preset) => (
              <ToggleButton
                key={preset}
                value={preset}
                data-testid={`analytics-period-${preset}`}
                sx={{ px: 1.5, py: 0.5, fontWeight: 600, whiteSpace: 'nowrap' }}
              >
                {t(`period.presets.${preset}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        )}
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
          <DateRangeOutlined fontSize="small" />
          <Typography variant="body2" data-testid="analytics-period-range" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {period.from === period.to ? period.from : t('period.range', { from: period.from, to: period.to })}
          </Typography>
        </Stack>
      </Stack>
      <Collapse in={customOpen} unmountOnExit>
        <Box
          component="form"
          noValidate
          onSubmit={apply}
          data-testid="analytics-period-custom"
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start', pt: 2 }}
        >
          {(['from', 'to'] as const).map((field) => (
            <TextField
              key={field}
              size="small"
              type="date"
              label={t(`period.${field}`)}
              value={draft[field]}
              onChange={(event) => setDraft((current) => ({ ...current, [field]: event.target.value }))}
              error={Boolean(errors[field])}
              helperText={errorText(errors[field])}
              sx={{ width: { xs: '100%', sm: 200 } }}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `analytics-period-${field}` } }}
            />
          ))}
          <Button
            type="submit"
            variant="contained"
            data-testid="analytics-period-apply"
            sx={{ height: 40, width: { xs: '100%', sm: 'auto' } }}
          >
            {t('period.apply')}
          </Button>
        </Box>
      </Collapse>
    </Box>
  );
}
