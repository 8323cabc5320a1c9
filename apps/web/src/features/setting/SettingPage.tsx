import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import { isRootRole } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FetchingBar } from '../../components/FetchingBar.js';
import { PageHeader } from '../../components/PageHeader.js';
import { PageTabs } from '../../components/PageTabs.js';
import { StatusScreen } from '../../components/StatusScreen.js';
import { useOptions } from '../../hooks/useOptions.js';
import { useSession } from '../../hooks/useSession.js';
import { isApiError } from '../../lib/api.js';
import { describeError } from '../../lib/notify.js';
import type { OptionsSnapshot } from '../../lib/optionsSnapshot.js';
import { SettingsFormProvider, useSettingsForm } from './SettingsForm.js';
import { SettingsSection } from './SettingsSection.js';
import { parseTab, SETTING_TABS, type SettingTab, sectionKeys, sectionsOf } from './sections.js';
import { changedKeys } from './settingsForm.js';

function TabLabel({ tab, snapshot }: { tab: SettingTab; snapshot: OptionsSnapshot | undefined }) {
  const { t } = useTranslation('setting');
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
      {t(`tabs.${tab}`)}
      {snapshot && <UnsavedDot tab={tab} />}
    </Box>
  );
}

/** Marks a tab that holds unsaved edits, so they are not forgotten after switching tabs. */
function UnsavedDot({ tab }: { tab: SettingTab }) {
  const { t } = useTranslation('setting');
  const form = useSettingsForm();
  const keys = sectionsOf(tab).flatMap(sectionKeys);
  if (changedKeys(form.snapshot, form.changes, keys).length === 0) return null;
  return (
    <Box
      component="span"
      role="img"
      aria-label={t('save.tabChanged')}
      data-testid={`setting-tab-dirty-${tab}`}
      sx={{ width: 7, height: 7, borderRadius: '50%', bgcolor: 'warning.main' }}
    />
  );
}

function SettingTabs({ tab, snapshot }: { tab: SettingTab; snapshot: OptionsSnapshot | undefined }) {
  const [, setSearch] = useSearchParams();
  return (
    <Card sx={{ mb: 2.5 }}>
      <PageTabs
        tabs={SETTING_TABS}
        value={tab}
        onChange={(next) =>
          setSearch((current) => {
            const search = new URLSearchParams(current);
            search.set('tab', next);
            return search;
          })
        }
        label={(id) => <TabLabel tab={id} snapshot={snapshot} />}
        testId="setting"
        sx={{ px: { xs: 0.5, sm: 1.5 } }}
        tabSx={{ minHeight: 52 }}
      />
    </Card>
  );
}

function SectionsGrid({ tab }: { tab: SettingTab }) {
  return (
    <Grid container spacing={2.5} data-testid={`setting-panel-${tab}`}>
      {sectionsOf(tab).map((section) => (
        <Grid key={section.id} size={{ xs: 12, lg: section.wide ? 12 : 6 }}>
          <SettingsSection section={section} />
        </Grid>
      ))}
    </Grid>
  );
}

function LoadingGrid() {
  return (
    <Grid container spacing={2.5} aria-busy="true">
      {[0, 1, 2, 3].map((index) => (
        <Grid key={index} size={{ xs: 12, lg: 6 }}>
          <Skeleton variant="rounded" height={280} />
        </Grid>
      ))}
    </Grid>
  );
}

/**
 * System settings (root only): three tabs of titled sections, each saved on its own. The tab is in
 * the URL (`?tab=system`); edits stay while switching tabs.
 */
export function SettingPage() {
  const { t } = useTranslation('setting');
  const { user } = useSession();
  const root = isRootRole(user?.role);
  const options = useOptions(root);
  const [search] = useSearchParams();
  const tab = parseTab(search.get('tab'));

  if (!root || isApiError(options.error, 403)) {
    return (
      <StatusScreen
        badge={<LockOutlined />}
        title={t('rootOnly.title')}
        description={t('rootOnly.description')}
        action={
          <Button variant="contained" component={RouterLink} to="/panel">
            {t('common:backToConsole')}
          </Button>
        }
        testId="setting-forbidden"
      />
    );
  }

  const header = <PageHeader title={t('title')} subtitle={t('subtitle')} />;
  if (!options.data) {
    return (
      <Box>
        {header}
        <SettingTabs tab={tab} snapshot={undefined} />
        {options.isError ? (
          <Alert
            severity="error"
            data-testid="setting-load-error"
            action={
              <Button color="inherit" size="small" onClick={() => void options.refetch()}>
                {t('common:retry')}
              </Button>
            }
          >
            {describeError(options.error)}
          </Alert>
        ) : (
          <LoadingGrid />
        )}
      </Box>
    );
  }

  return (
    <SettingsFormProvider snapshot={options.data}>
      <Box data-testid="setting-page">
        {header}
        <SettingTabs tab={tab} snapshot={options.data} />
        <FetchingBar active={options.isFetching} />
        <SectionsGrid tab={tab} />
      </Box>
    </SettingsFormProvider>
  );
}
