import FilterList from '@mui/icons-material/FilterList';
import Search from '@mui/icons-material/Search';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { formatTimestamp } from '@one-hub/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { activeFilterCount } from '../../hooks/listParams.js';
import type { LogFilters } from './log.api.js';
import { emptyLogFilters, LOG_TYPES } from './useLogListParams.js';

type TextFilter = 'model_name' | 'token_name' | 'request_id' | 'username' | 'channel_id' | 'source_ip';

/** The inputs' text; times as datetime-local values with seconds. */
interface Draft extends Record<TextFilter, string> {
  log_type: number;
  start: string;
  end: string;
}

const toInput = (seconds: number) => (seconds ? formatTimestamp(seconds).replace(' ', 'T') : '');

function fromInput(text: string): number {
  const milliseconds = text ? new Date(text).getTime() : Number.NaN;
  return Number.isNaN(milliseconds) ? 0 : Math.floor(milliseconds / 1000);
}

function toDraft(filters: LogFilters): Draft {
  const { start_timestamp: start, end_timestamp: end, ...rest } = filters;
  return { ...rest, start: toInput(start), end: toInput(end) };
}

function toFilters(draft: Draft): LogFilters {
  const { start, end, ...rest } = draft;
  const trimmed = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]),
  ) as Omit<Draft, 'start' | 'end'>;
  return { ...trimmed, start_timestamp: fromInput(start), end_timestamp: fromInput(end) };
}

interface LogFilterBarProps {
  filters: LogFilters;
  admin: boolean;
  /** Narrow screens fold the fields away behind a button. */
  compact: boolean;
  onApply(filters: LogFilters): void;
}

/** Every filter of reference §1.13; applied together with the search button (or Enter). */
export function LogFilterBar({ filters, admin, compact, onApply }: LogFilterBarProps) {
  const { t } = useTranslation('log');
  const [draft, setDraft] = useState<Draft>(() => toDraft(filters));
  const [open, setOpen] = useState(false);
  // The URL is the source of truth: back/forward navigation refills the inputs.
  useEffect(() => setDraft(toDraft(filters)), [filters]);

  const set = (field: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({
      ...current,
      [field]: field === 'log_type' ? Number(event.target.value) : event.target.value,
    }));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(toFilters(draft));
  };
  const textField = (field: TextFilter, testId: string) => (
    <Grid size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
      <TextField
        size="small"
        label={t(`filters.${field}`)}
        value={draft[field]}
        onChange={set(field)}
        type={field === 'channel_id' ? 'number' : 'text'}
        slotProps={{ htmlInput: { 'data-testid': testId, ...(field === 'channel_id' ? { min: 1 } : {}) } }}
      />
    </Grid>
  );

  const count = activeFilterCount(filters);
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ p: 2 }} data-testid="log-filters">
      {compact && (
        <Button
          color="inherit"
          startIcon={
            <Badge badgeContent={count} color="primary">
              <FilterList />
            </Badge>
          }
          onClick={() => setOpen((current) => !current)}
          aria-expanded={open}
          data-testid="log-filter-toggle"
          sx={{ mb: open ? 2 : 0 }}
        >
          {open ? t('filters.hide') : t('filters.show')}
        </Button>
      )}
      <Collapse in={!compact || open} unmountOnExit={false}>
        <Grid container spacing={1.5}>
          <Grid size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
            <TextField
              select
              size="small"
              label={t('filters.type')}
              value={draft.log_type}
              onChange={set('log_type')}
              data-testid="log-filter-type"
            >
              <MenuItem value={0} data-testid="log-filter-type-0">
                {t('types.all')}
              </MenuItem>
              {LOG_TYPES.map((type) => (
                <MenuItem key={type} value={type} data-testid={`log-filter-type-${type}`}>
                  {t(`types.${type}`)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          {(['start', 'end'] as const).map((field) => (
            <Grid key={field} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
              <TextField
                size="small"
                type="datetime-local"
                label={t(`filters.${field}`)}
                value={draft[field]}
                onChange={set(field)}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { step: 1, 'data-testid': `log-filter-${field}` },
                }}
              />
            </Grid>
          ))}
          {textField('model_name', 'log-filter-model')}
          {textField('token_name', 'log-filter-token')}
          {textField('request_id', 'log-filter-request')}
          {admin && textField('username', 'log-filter-username')}
          {admin && textField('channel_id', 'log-filter-channel')}
          {admin && textField('source_ip', 'log-filter-ip')}
          <Grid size="grow" sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'flex-end', gap: 1 }}>
            <Button
              color="inherit"
              onClick={() => {
                setDraft(toDraft(emptyLogFilters));
                onApply(emptyLogFilters);
              }}
              data-testid="log-filter-reset"
            >
              {t('filters.reset')}
            </Button>
            <Button type="submit" variant="contained" startIcon={<Search />} data-testid="log-filter-submit">
              {t('filters.apply')}
            </Button>
          </Grid>
        </Grid>
      </Collapse>
    </Box>
  );
}
