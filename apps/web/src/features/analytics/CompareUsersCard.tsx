import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import { ANALYTICS_MAX_DAYS, MULTI_USER_MAX } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../components/charts/ChartCard.js';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { describeError, showError } from '../../lib/notify.js';
import { downloadComparisonCsv, useComparison } from './analytics.api.js';
import { ComparisonResults } from './ComparisonResults.js';
import {
  absorbTyping,
  type CompareDraft,
  type CompareQuery,
  compareErrors,
  hasErrors,
  missingUsernames,
  toCompareQuery,
} from './compareForm.js';

interface CompareUsersCardProps {
  draft: CompareDraft;
  onDraft(update: (current: CompareDraft) => CompareDraft): void;
  /** Names to offer while typing (the period's top users). */
  suggestions: string[];
}

/** Named users side by side over two dates, with the same figures as a CSV file. */
export function CompareUsersCard({ draft, onDraft, suggestions }: CompareUsersCardProps) {
  const { t } = useTranslation('analytics');
  const [touched, setTouched] = useState(false);
  const [query, setQuery] = useState<CompareQuery | null>(null);
  const [downloading, setDownloading] = useState(false);
  const comparison = useComparison(query);

  const errors = touched ? compareErrors(draft) : {};
  const validQuery = (): CompareQuery | null => {
    setTouched(true);
    if (hasErrors(compareErrors(draft))) return null;
    const next = toCompareQuery(draft);
    onDraft((current) => ({ ...current, usernames: next.usernames, pending: '' }));
    setQuery(next);
    return next;
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    validQuery();
  };
  const download = async () => {
    const next = validQuery();
    if (!next) return;
    setDownloading(true);
    try {
      await downloadComparisonCsv(next);
    } catch (error) {
      showError(error);
    } finally {
      setDownloading(false);
    }
  };
  const rangeText = (field: 'from' | 'to') => {
    const error = errors[field];
    return error ? t(`period.errors.${error}`, { max: ANALYTICS_MAX_DAYS }) : undefined;
  };

  const result = comparison.data;
  const missing = query && result ? missingUsernames(query, result.data) : [];

  return (
    <ChartCard title={t('compare.title')} subtitle={t('compare.subtitle')} testId="analytics-compare">
      <Box component="form" noValidate onSubmit={submit} data-testid="analytics-compare-form">
        <Grid container spacing={1.5}>
          <Grid size={{ xs: 12, md: 6 }}>
            <Autocomplete
              multiple
              freeSolo
              options={suggestions.filter((name) => !draft.usernames.includes(name))}
              value={draft.usernames}
              inputValue={draft.pending}
              onChange={(_event, value) =>
                onDraft((current) => ({
                  ...current,
                  usernames: [...new Set(value.map((name) => name.trim()))].filter(Boolean),
                }))
              }
              onInputChange={(_event, typed, reason) => {
                if (reason === 'reset') return;
                onDraft((current) => ({ ...current, ...absorbTyping(current.usernames, typed) }));
              }}
              renderValue={(names, getItemProps) =>
                names.map((name, index) => {
                  const { key, ...itemProps } = getItemProps({ index });
                  return (
                    <Chip
                      key={key}
                      size="small"
                      label={name}
                      {...itemProps}
                      data-testid={`analytics-compare-chip-${name}`}
                    />
                  );
                })
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  size="small"
                  label={t('compare.usernames')}
                  placeholder={draft.usernames.length === 0 ? t('compare.usernamesPlaceholder') : undefined}
                  error={Boolean(errors.usernames)}
                  helperText={
                    errors.usernames
                      ? t(`compare.errors.${errors.usernames}`, { max: MULTI_USER_MAX })
                      : t('compare.usernamesHint')
                  }
                  slotProps={{
                    ...params.slotProps,
                    htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'analytics-compare-usernames' },
                  }}
                />
              )}
            />
          </Grid>
          {(['from', 'to'] as const).map((field) => (
            <Grid key={field} size={{ xs: 6, md: 2 }}>
              <TextField
                size="small"
                type="date"
                label={t(`period.${field}`)}
                value={draft[field]}
                onChange={(event) => onDraft((current) => ({ ...current, [field]: event.target.value }))}
                error={Boolean(errors[field])}
                helperText={rangeText(field)}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { 'data-testid': `analytics-compare-${field === 'from' ? 'start' : 'end'}` },
                }}
              />
            </Grid>
          ))}
          <Grid size={{ xs: 12, md: 2 }} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            <Button
              type="submit"
              variant="contained"
              sx={{ flex: 1, height: 40 }}
              data-testid="analytics-compare-submit"
            >
              {t('compare.submit')}
            </Button>
            <Button
              variant="outlined"
              onClick={() => void download()}
              disabled={downloading}
              aria-label={t('compare.download')}
              title={t('compare.download')}
              sx={{ minWidth: 0, px: 1.25, height: 40 }}
              data-testid="analytics-compare-export"
            >
              <DownloadOutlined fontSize="small" />
            </Button>
          </Grid>
        </Grid>
      </Box>

      <Box sx={{ mt: 2 }}>
        <FetchingBar active={comparison.isFetching} />
        {comparison.isError ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {t('compare.error', { message: describeError(comparison.error) })}
          </Alert>
        ) : !query || !result ? (
          <ListEmptyState
            icon={GroupOutlined}
            title={t('compare.idleTitle')}
            description={t('compare.idle')}
            testId="analytics-compare-idle"
          />
        ) : (
          <>
            {missing.length > 0 && (
              <Alert severity="warning" sx={{ mt: 1, mb: 2 }} data-testid="analytics-compare-missing">
                {t('compare.missing', { names: missing.join(', ') })}
              </Alert>
            )}
            {result.data.length === 0 ? (
              <ListEmptyState
                icon={GroupOutlined}
                title={t('compare.noneTitle')}
                description={t('compare.none')}
                testId="analytics-compare-empty"
              />
            ) : (
              <ComparisonResults rows={result.data} modelUsage={result.model_usage} />
            )}
          </>
        )}
      </Box>
    </ChartCard>
  );
}
