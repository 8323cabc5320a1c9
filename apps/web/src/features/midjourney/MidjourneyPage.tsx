import PaletteOutlined from '@mui/icons-material/PaletteOutlined';
import type { MidjourneyTaskView } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterField } from '../../components/tasks/FilterBar.js';
import { TaskListPage } from '../../components/tasks/TaskListPage.js';
import { activeFilterCount, filtersOf } from '../../hooks/listParams.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useSession } from '../../hooks/useSession.js';
import { ImagePreviewDialog } from './ImagePreviewDialog.js';
import { MidjourneyTable } from './MidjourneyTable.js';
import { useMidjourneyTasks } from './midjourney.api.js';
import { midjourneyDraft, midjourneyFromDraft } from './midjourneyDraft.js';
import { emptyMidjourneyFilters, useMidjourneyListParams } from './useMidjourneyListParams.js';

const emptyDraft = midjourneyDraft(emptyMidjourneyFilters);

/** The Midjourney drawings: everyone's for administrators, the caller's own otherwise. */
export function MidjourneyPage() {
  const { t } = useTranslation('midjourney');
  const compact = useCompact('sm');
  const { isAdmin } = useSession();
  const [params, update] = useMidjourneyListParams();
  const tasks = useMidjourneyTasks(isAdmin, params);
  const filters = useMemo(() => filtersOf(params), [params]);
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
    <TaskListPage
      texts={{
        title: t('title'),
        subtitle: isAdmin ? t('subtitleAdmin') : t('subtitle'),
        total: t('totalCount', { count: tasks.data?.total_count ?? 0 }),
        refresh: t('refresh'),
        filters: {
          apply: t('filters.apply'),
          reset: t('filters.reset'),
          show: t('filters.show'),
          hide: t('filters.hide'),
        },
        empty: {
          title: t('empty.title'),
          description: t('empty.description'),
          noMatchTitle: t('empty.noMatchTitle'),
          noMatch: t('empty.noMatch'),
        },
      }}
      testIdPrefix="mj"
      icon={PaletteOutlined}
      query={tasks}
      params={params}
      onChange={update}
      compact={compact}
      fields={fields}
      draft={draft}
      emptyDraft={emptyDraft}
      activeCount={active}
      onApply={(next) => update({ ...midjourneyFromDraft(next), page: 1 })}
      dialogs={
        <ImagePreviewDialog
          open={preview.open}
          task={preview.task}
          onClose={() => setPreview((current) => ({ ...current, open: false }))}
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
    </TaskListPage>
  );
}
