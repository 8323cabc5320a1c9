import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FetchingBar } from '../../components/FetchingBar.js';
import { PageHeader } from '../../components/PageHeader.js';
import { analyticsKeys } from './analytics.api.js';
import { OverviewTab } from './OverviewTab.js';
import { PeriodPicker } from './PeriodPicker.js';
import { type Period, parsePeriod, writePeriod } from './period.js';
import { SummaryCards } from './SummaryCards.js';
import { UsersTab } from './UsersTab.js';

const TABS = ['overview', 'users'] as const;
type AnalyticsTab = (typeof TABS)[number];

/** Site-wide figures, usage over a chosen period, and usage by user (reference §1.16). */
export function AnalyticsPage() {
  const { t } = useTranslation('analytics');
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: analyticsKeys.all }) > 0;
  const [search, setSearch] = useSearchParams();
  // Parsed once per URL, so "today" keeps one value (and one query key) while the page is open.
  const period = useMemo(() => parsePeriod(search), [search]);
  const range = useMemo(() => ({ from: period.from, to: period.to }), [period]);
  const tab: AnalyticsTab = search.get('tab') === 'users' ? 'users' : 'overview';

  const changePeriod = useCallback((next: Period) => setSearch((current) => writePeriod(current, next)), [setSearch]);
  const changeTab = (next: AnalyticsTab) =>
    setSearch((current) => {
      const updated = new URLSearchParams(current);
      if (next === 'overview') updated.delete('tab');
      else updated.set('tab', next);
      return updated;
    });

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
        <Tabs
          value={tab}
          onChange={(_event, next: AnalyticsTab) => changeTab(next)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ px: { xs: 1, sm: 1.5 } }}
        >
          {TABS.map((value) => (
            <Tab key={value} value={value} label={t(`tabs.${value}`)} data-testid={`analytics-tab-${value}`} />
          ))}
        </Tabs>
        <FetchingBar active={fetching} />
      </Card>
      {tab === 'overview' ? <OverviewTab range={range} /> : <UsersTab range={range} />}
    </Box>
  );
}
