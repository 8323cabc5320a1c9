import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FetchingBar } from '../../components/FetchingBar.js';
import { PageHeader } from '../../components/PageHeader.js';
import { PageTabs, useUrlTab } from '../../components/PageTabs.js';
import { analyticsKeys } from './analytics.api.js';
import { OverviewTab } from './OverviewTab.js';
import { PeriodPicker } from './PeriodPicker.js';
import { type Period, parsePeriod, writePeriod } from './period.js';
import { SummaryCards } from './SummaryCards.js';
import { UsersTab } from './UsersTab.js';

const TABS = ['overview', 'users'] as const;

/** Site-wide figures, usage over a chosen period, and usage by user (reference §1.16). */
export function AnalyticsPage() {
  const { t } = useTranslation('analytics');
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: analyticsKeys.all }) > 0;
  const [search, setSearch] = useSearchParams();
  // Parsed once per URL, so "today" keeps one value (and one query key) while the page is open.
  const period = useMemo(() => parsePeriod(search), [search]);
  const range = useMemo(() => ({ from: period.from, to: period.to }), [period]);
  const [tab, changeTab] = useUrlTab(TABS, true);

  const changePeriod = useCallback((next: Period) => setSearch((current) => writePeriod(current, next)), [setSearch]);

  return (
    <Box>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button
            variant="outlined"
            startIcon={<Refresh />}
            onClick={() => void queryClient.invalidateQueries({ queryKey: analyticsKeys.all })}
            data-testid="analytics-refresh"
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          >
            {t('refresh')}
          </Button>
        }
      />
      <SummaryCards />
      <Card sx={{ mb: 2.5 }}>
        <Box sx={{ p: { xs: 2, sm: 2.5 } }}>
          <PeriodPicker period={period} onChange={changePeriod} />
        </Box>
        <Divider />
        <PageTabs
          tabs={TABS}
          value={tab}
          onChange={changeTab}
          label={(value) => t(`tabs.${value}`)}
          testId="analytics"
          sx={{ px: { xs: 1, sm: 1.5 } }}
        />
        <FetchingBar active={fetching} />
      </Card>
      {tab === 'overview' ? <OverviewTab range={range} /> : <UsersTab range={range} />}
    </Box>
  );
}
