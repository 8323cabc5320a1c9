import SearchOffRounded from '@mui/icons-material/SearchOffRounded';
import WidgetsOutlined from '@mui/icons-material/WidgetsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UserGroupView } from '@one-hub/contracts';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompact } from '../../hooks/useCompact.js';
import { useSelf } from '../../hooks/useSelf.js';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { describeError } from '../../lib/notify.js';
import { ModelPriceFilters } from './ModelPriceFilters.js';
import { ModelPriceCards, ModelPriceTable } from './ModelPriceList.js';
import { useAvailableModels, useOwnedBy } from './model-price.api.js';
import { filterRows, ownerCounts, toRows } from './pricing.js';

function EmptyState({
  icon,
  title,
  description,
  action,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  action?: ReactNode;
}) {
  return (
    <Card data-testid="model-price-empty">
      <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', px: 3, py: { xs: 6, md: 8 } }}>
        <Box sx={{ color: 'text.secondary', '& svg': { fontSize: 40 } }}>{icon}</Box>
        <Typography variant="h6" component="p">
          {title}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', maxWidth: 420 }}>
          {description}
        </Typography>
        {action}
      </Stack>
    </Card>
  );
}

function LoadingList() {
  return (
    <Card sx={{ p: 2 }} aria-busy="true">
      <Stack spacing={1.5}>
        {[0, 1, 2, 3, 4].map((index) => (
          <Skeleton key={index} variant="rounded" height={44} />
        ))}
      </Stack>
    </Card>
  );
}

/** Picks the group prices are shown for: the visitor's choice, else their own group, else the first. */
function useGroupChoice(groupMap: Record<string, UserGroupView> | undefined, ownGroup: string | undefined) {
  const [choice, setChoice] = useState<string | null>(null);
  const groups = useMemo(
    () =>
      Object.values(groupMap ?? {}).sort(
        (left, right) => Number(right.symbol === ownGroup) - Number(left.symbol === ownGroup) || left.id - right.id,
      ),
    [groupMap, ownGroup],
  );
  const valid = (symbol: string | null | undefined) => !!symbol && groups.some((group) => group.symbol === symbol);
  const group = valid(choice) ? (choice as string) : valid(ownGroup) ? (ownGroup as string) : (groups[0]?.symbol ?? '');
  return { groups, group, setGroup: setChoice };
}

/** Available models: what the user may call, and what it costs in their group (spec §2, billing menu). */
export function ModelPricePage() {
  const { t } = useTranslation('modelPrice');
  const compact = useCompact('md');
  const models = useAvailableModels();
  const groupMap = useUserGroupMap();
  const self = useSelf({ staleTime: 30_000 });
  const ownedBy = useOwnedBy();
  const [search, setSearch] = useState('');
  const [owner, setOwner] = useState('');
  const { groups, group, setGroup } = useGroupChoice(groupMap.data, self.data?.group);
  const groupRatio = groupMap.data?.[group]?.ratio ?? 1;

  const rows = useMemo(() => toRows(models.data), [models.data]);
  const inGroup = useMemo(() => filterRows(rows, { search: '', owner: '', group }), [rows, group]);
  const owners = useMemo(() => ownerCounts(inGroup), [inGroup]);
  const activeOwner = owners.some((entry) => entry.owner === owner) ? owner : '';
  const visible = useMemo(
    () => filterRows(inGroup, { search, owner: activeOwner, group: '' }),
    [inGroup, search, activeOwner],
  );
  const ownerIcons = useMemo(
    () => Object.fromEntries(Object.values(ownedBy.data ?? {}).map((entry) => [entry.name, entry.icon])),
    [ownedBy.data],
  );
  const clearFilters = () => {
    setSearch('');
    setOwner('');
  };

  let content: ReactNode;
  if (models.isPending) {
    content = <LoadingList />;
  } else if (models.isError) {
    content = (
      <Alert
        severity="error"
        data-testid="model-price-error"
        action={
          <Button color="inherit" size="small" onClick={() => void models.refetch()}>
            {t('common:retry')}
          </Button>
        }
      >
        {describeError(models.error)}
      </Alert>
    );
  } else if (inGroup.length === 0) {
    content = <EmptyState icon={<WidgetsOutlined />} title={t('empty.title')} description={t('empty.description')} />;
  } else if (visible.length === 0) {
    content = (
      <EmptyState
        icon={<SearchOffRounded />}
        title={t('noMatch.title')}
        description={t('noMatch.description')}
        action={
          <Button variant="outlined" size="small" onClick={clearFilters} data-testid="model-price-clear">
            {t('noMatch.clear')}
          </Button>
        }
      />
    );
  } else {
    const listProps = { rows: visible, groupRatio, selectedGroup: group, groupMap: groupMap.data, ownerIcons };
    content = compact ? <ModelPriceCards {...listProps} /> : <ModelPriceTable {...listProps} />;
  }

  return (
    <Stack spacing={3} data-testid="model-price-page">
      <Box>
        <Typography variant="h4" component="h1">
          {t('title')}
        </Typography>
        <Typography sx={{ color: 'text.secondary', mt: 0.5 }}>{t('subtitle')}</Typography>
      </Box>
      <ModelPriceFilters
        search={search}
        onSearch={setSearch}
        groups={groups}
        group={group}
        ownGroup={self.data?.group}
        onGroup={setGroup}
        owners={owners}
        total={inGroup.length}
        owner={activeOwner}
        onOwner={setOwner}
        ownerIcons={ownerIcons}
      />
      <Stack spacing={1.5}>
        {!models.isPending && !models.isError && inGroup.length > 0 && (
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={0.5}
            sx={{ justifyContent: 'space-between', alignItems: { sm: 'baseline' } }}
          >
            <Typography variant="subtitle2" data-testid="model-price-count">
              {t('count', { count: visible.length })}
            </Typography>
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {t('unitNote')}
            </Typography>
          </Stack>
        )}
        {content}
      </Stack>
    </Stack>
  );
}
