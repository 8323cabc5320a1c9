import PaletteOutlined from '@mui/icons-material/PaletteOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { MidjourneyTaskView } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPanel } from '../../components/ListPanel.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { FilterBar, type FilterField } from '../../components/tasks/FilterBar.js';
import { activeFilterCount, PAGE_SIZES } from '../../hooks/listParams.js';
import { useSession } from '../../hooks/useSession.js';
import { ImagePreviewDialog } from './ImagePreviewDialog.js';
import { MidjourneyTable } from './MidjourneyTable.js';
import { useMidjourneyTasks } from './midjourney.api.js';
import { midjourneyDraft, midjourneyFromDraft } from './midjourneyDraft.js';
import { emptyMidjourneyFilters, midjourneyFiltersOf, useMidjourneyListParams } from './useMidjourneyListParams.js';

const emptyDraft = midjourneyDraft(emptyMidjourneyFilters);

/** The Midjourney drawings: everyone's for administrators, the caller's own otherwise. */
export function MidjourneyPage() {
  const { t } = useTranslation('midjourney');
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const { isAdmin } = useSession();
  const [params, update] = useMidjourneyListParams();
  const tasks = useMidjourneyTasks(isAdmin, params);
  const filters = useMemo(() => midjourneyFiltersOf(params), [params]);
  const draft = useMemo(() => midjourneyDraft(filters), [filters]);
  const [preview, setPreview] = useState<{ open: boolean; task: MidjourneyTaskView | null }>({
    open: false,
    task: null,
  });

  const fields: FilterField[] = [
    ...(isAdmin ? [{ key: 'channel_id', label: t('filters.channel_id'), kind: 'number' as const }] : []),
    { key: 'mj_id', label: t('filters.mj_id'), kind: 'text' },
    { key: 'start', label: t('filters.start'), kind: 'datetime' },
    { key: 'end', label: t('filters.end'), kind: 'datetime' },
  ];
  // The channel filter is ignored on the own list; a stale one in the URL must not count.
  const active = activeFilterCount(isAdmin ? filters : { ...filters, channel_id: '' });

  return (
    <Box>
      <PageHeader title={t('title')} subtitle={isAdmin ? t('subtitleAdmin') : t('subtitle')} />
      <ListPanel
        query={tasks}
        params={params}
        onChange={update}
        sizes={PAGE_SIZES}
        compact={compact}
        paginationTestId="mj-pagination"
        toolbar={
          <>
            <FilterBar
              fields={fields}
              draft={draft}
              emptyDraft={emptyDraft}
              activeCount={active}
              compact={compact}
              labels={{
                apply: t('filters.apply'),
                reset: t('filters.reset'),
                show: t('filters.show'),
                hide: t('filters.hide'),
              }}
              testIdPrefix="mj"
              onApply={(next) => update({ ...midjourneyFromDraft(next), page: 1 })}
            />
            <Divider />
            <Stack direction="row" sx={{ px: 2, py: 0.5, alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="mj-total">
                {t('totalCount', { count: tasks.data?.total_count ?? 0 })}
              </Typography>
              <RefreshButton label={t('refresh')} onClick={() => void tasks.refetch()} testId="mj-refresh" />
            </Stack>
          </>
        }
        empty={
          <ListEmptyState
            icon={PaletteOutlined}
            title={active > 0 ? t('empty.noMatchTitle') : t('empty.title')}
            description={active > 0 ? t('empty.noMatch') : t('empty.description')}
            testId="mj-empty"
          />
        }
      >
        <MidjourneyTable
          tasks={tasks.data?.data ?? []}
          loading={tasks.isLoading}
          admin={isAdmin}
          compact={compact}
          order={params.order}
          onSort={(order) => update({ order })}
          onPreview={(task) => setPreview({ open: true, task })}
        />
      </ListPanel>
      <ImagePreviewDialog
        open={preview.open}
        task={preview.task}
        onClose={() => setPreview((current) => ({ ...current, open: false }))}
      />
    </Box>
  );
}
