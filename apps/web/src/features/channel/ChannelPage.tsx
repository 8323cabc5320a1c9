import HubOutlined from '@mui/icons-material/HubOutlined';
import Collapse from '@mui/material/Collapse';
import { type ChannelHealthView, ChannelTagFolding, type ChannelView, splitChannelList } from '@one-hub/contracts';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useWords } from '../../i18n/useWords.js';
import { notify } from '../../lib/notify.js';
import { BatchBar, TestAllProgressBanner } from './ChannelBulk.js';
import { ChannelConfirmDialog, type PendingAction } from './ChannelConfirm.js';
import { type BatchKind, BatchValueDialog } from './ChannelDialogs.js';
import { ChannelFilterPanel } from './ChannelFilterBar.js';
import { ChannelFormDialog, type ChannelFormRequest } from './ChannelFormDialog.js';
import { ChannelHealthDialog } from './ChannelHealthDialog.js';
import { ChannelsTable } from './ChannelsTable.js';
import { ChannelTableContext, type ChannelTableContextValue } from './ChannelTableContext.js';
import { ChannelToolbar } from './ChannelToolbar.js';
import {
  type ChannelTestResult,
  useChannelHealth,
  useChannels,
  useChannelTags,
  useClearChannelTag,
  useGroupSymbols,
  useProviders,
  useStartTestAll,
  useTestAllProgress,
  useUpdateAllBalances,
} from './channel.api.js';
import {
  activeChannelFilterCount,
  emptyChannelFilters,
  isTagView,
  useChannelListParams,
} from './useChannelListParams.js';

/** Until the health is read, and for a server that answers none. */
const NO_HEALTH: ReadonlyMap<number, ChannelHealthView> = new Map();

interface FormState {
  request: ChannelFormRequest;
  session: number;
}

export function ChannelPage() {
  const { t } = useTranslation('channel');
  const words = useWords('channel', 'list');
  const compact = useCompact('md');
  const [params, update] = useChannelListParams();
  const [keyFilter, setKeyFilter] = useState('');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const channels = useChannels({ ...params, key: keyFilter });
  const providers = useProviders();
  const groups = useGroupSymbols();
  const tags = useChannelTags();
  const health = useChannelHealth();
  const [healthOf, setHealthOf] = useState<ChannelView | null>(null);
  const tagView = isTagView(params.filter_tag);
  // While a new layout loads, the previous rows stay on screen: draw them as the layout they came in.
  const settledFolding = useRef(params.filter_tag);
  if (channels.data && !channels.isPlaceholderData) settledFolding.current = params.filter_tag;
  const rowsTagView = isTagView(settledFolding.current);

  const [form, setForm] = useState<FormState | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [batchKind, setBatchKind] = useState<BatchKind | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [testResults, setTestResults] = useState<Record<number, ChannelTestResult>>({});
  const [testStarted, setTestStarted] = useState(0);

  const clearTag = useClearChannelTag();
  const startTestAll = useStartTestAll();
  const testProgress = useTestAllProgress();
  const refreshBalances = useUpdateAllBalances();

  const rows = channels.data?.data ?? [];
  const providerMap = useMemo(
    () => new Map((providers.data ?? []).map((provider) => [provider.type, provider])),
    [providers.data],
  );
  const search = useCallback((name: string) => update({ name }), [update]);

  const pageIds = rows.filter((row) => !(rowsTagView && row.tag)).map((row) => row.id);
  const selectedOnPage = pageIds.filter((id) => selected.has(id)).length;
  const selectedIds = [...selected];

  const openForm = (request: ChannelFormRequest) => {
    setForm({ request, session: Date.now() });
    setFormOpen(true);
  };

  const context: ChannelTableContextValue = {
    providers: providerMap,
    testResults,
    onTestResult: (id, result) => setTestResults((current) => ({ ...current, [id]: result })),
    health: health.data ?? NO_HEALTH,
    onShowHealth: setHealthOf,
    selected,
    toggleSelected: (id) =>
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    onEdit: (channel) => openForm({ mode: 'edit', channel }),
    onCopy: (channel) => openForm({ mode: 'create', copyOf: channel }),
    onDelete: (channel) => setPending({ kind: 'delete', channel }),
    onClearTag: (channel) =>
      clearTag.mutate(channel.id, { onSuccess: () => notify.success(t('notify.tagCleared', { name: channel.name })) }),
    onEditTag: (tag) => openForm({ mode: 'tag', tag }),
    onTagAction: (tag, action) => {
      if (action === 'delete') setPending({ kind: 'tagDelete', tag });
      if (action === 'deleteDisabled') setPending({ kind: 'tagDeleteDisabled', tag });
    },
  };

  const selectAll = (checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of pageIds) {
        if (checked) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const testAll = () =>
    startTestAll.mutate(undefined, {
      onSuccess: (queued) => {
        setTestStarted((current) => current + 1);
        notify.info(t('testAll.started', { count: Number(queued) }));
      },
    });

  const filterCount = activeChannelFilterCount(params, keyFilter);
  const selectedModels = [
    ...new Set(rows.filter((row) => selected.has(row.id)).flatMap((row) => splitChannelList(row.models))),
  ].sort();

  return (
    <ListPage
      testId="channel-page"
      title={words.title}
      subtitle={words.subtitle}
      create={{ label: words.create, onClick: () => openForm({ mode: 'create' }), testId: 'channel-create' }}
      query={channels}
      params={params}
      onChange={update}
      compact={compact}
      paginationTestId="channel-pagination"
      toolbar={
        <>
          <ChannelToolbar
            name={params.name}
            onSearch={search}
            filterCount={filterCount}
            filtersOpen={filtersOpen}
            onToggleFilters={() => setFiltersOpen((current) => !current)}
            tagView={tagView}
            onView={(view) =>
              update({ filter_tag: view === 'tags' ? ChannelTagFolding.folded : ChannelTagFolding.unfolded })
            }
            compact={compact}
            onRefresh={() => void channels.refetch()}
            bulk={{
              onTestAll: testAll,
              testing: startTestAll.isPending || Boolean(testProgress.data?.running),
              onDeleteDisabled: () => setPending({ kind: 'deleteDisabled' }),
              onRefreshBalances: () =>
                refreshBalances.mutate(undefined, { onSuccess: () => notify.success(t('notify.balancesRefreshed')) }),
            }}
          />
          <Collapse in={filtersOpen} unmountOnExit>
            <ChannelFilterPanel
              filters={params}
              keyFilter={keyFilter}
              folding={params.filter_tag}
              tagView={tagView}
              providers={providers.data ?? []}
              groups={groups.data ?? []}
              tags={tags.data ?? []}
              onApply={(filters, key, folding) => {
                setKeyFilter(key);
                update({ ...filters, filter_tag: folding as ChannelTagFolding });
              }}
            />
          </Collapse>
          <TestAllProgressBanner started={testStarted} />
        </>
      }
      empty={
        <ListNoRows
          icon={HubOutlined}
          testId="channel-empty"
          filtered={filterCount > 0 || params.name !== ''}
          {...words.empty}
          clearLabel={t('empty.clearFilters')}
          onClear={() => {
            setKeyFilter('');
            update(emptyChannelFilters);
          }}
          clearTestId="channel-clear-filters"
          create={{ label: words.create, onClick: () => openForm({ mode: 'create' }) }}
        />
      }
      dialogs={
        <>
          <BatchBar
            count={selected.size}
            onDelete={() => setPending({ kind: 'deleteSelected', ids: selectedIds })}
            onBatch={setBatchKind}
            onClear={() => setSelected(new Set())}
          />

          <ChannelFormDialog
            open={formOpen}
            session={form?.session ?? null}
            request={form?.request ?? null}
            onClose={() => setFormOpen(false)}
            onSaved={() => setFormOpen(false)}
          />
          <ChannelHealthDialog
            channel={healthOf}
            view={healthOf ? health.data?.get(healthOf.id) : undefined}
            onClose={() => setHealthOf(null)}
          />
          <ChannelConfirmDialog
            pending={pending}
            onClose={() => setPending(null)}
            onDeletedSelected={() => setSelected(new Set())}
          />
          <BatchValueDialog
            kind={batchKind}
            ids={selectedIds}
            models={selectedModels}
            onClose={() => setBatchKind(null)}
            onDone={() => setBatchKind(null)}
          />
        </>
      }
    >
      {/* The error sits above the (empty) table, whose headings stay in view. */}
      {channels.isError && !channels.data && (
        <ListLoadError error={channels.error} onRetry={() => void channels.refetch()} testId="channel-error" />
      )}
      <ChannelTableContext.Provider value={context}>
        <ChannelsTable
          channels={rows}
          loading={channels.isLoading}
          tagView={rowsTagView}
          order={params.order}
          onSort={(order) => update({ order })}
          compact={compact}
          allSelected={pageIds.length > 0 && selectedOnPage === pageIds.length}
          someSelected={selectedOnPage > 0}
          onSelectAll={selectAll}
        />
      </ChannelTableContext.Provider>
    </ListPage>
  );
}
