import FilterList from '@mui/icons-material/FilterList';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { RefreshButton } from '../../components/RefreshButton.js';
import { BulkMenu } from './ChannelBulk.js';
import { ChannelSearchBox } from './ChannelFilterBar.js';

/** The channel list as rows, or folded by tag. */
type ChannelView = 'list' | 'tags';

interface ChannelToolbarProps {
  name: string;
  onSearch(name: string): void;
  /** Filters in use, shown on the filter button. */
  filterCount: number;
  filtersOpen: boolean;
  onToggleFilters(): void;
  tagView: boolean;
  onView(view: ChannelView): void;
  /** Narrow screens: the view switch shows its icons only. */
  compact: boolean;
  onRefresh(): void;
  bulk: ComponentProps<typeof BulkMenu>;
}

/** The top row of the channel list: search, the filter panel's button, the view switch, refresh and bulk actions. */
export function ChannelToolbar({
  name,
  onSearch,
  filterCount,
  filtersOpen,
  onToggleFilters,
  tagView,
  onView,
  compact,
  onRefresh,
  bulk,
}: ChannelToolbarProps) {
  const { t } = useTranslation('channel');
  return (
    <Stack direction="row" sx={{ p: 2, alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Box sx={{ flex: { xs: '1 1 100%', sm: '0 1 auto' } }}>
        <ChannelSearchBox name={name} onSearch={onSearch} />
      </Box>
      <Button
        color={filtersOpen ? 'primary' : 'inherit'}
        startIcon={
          <Badge badgeContent={filterCount} color="primary">
            <FilterList />
          </Badge>
        }
        onClick={onToggleFilters}
        aria-expanded={filtersOpen}
        data-testid="channel-filter-toggle"
      >
        {t('filters.button')}
      </Button>
      <Box sx={{ flex: 1 }} />
      <ToggleButtonGroup
        size="small"
        exclusive
        value={tagView ? 'tags' : 'list'}
        onChange={(_event, view: ChannelView | null) => view && onView(view)}
        aria-label={t('view.label')}
      >
        <ToggleButton value="list" data-testid="channel-view-list" sx={{ gap: 0.75, px: 1.25 }}>
          <ViewListOutlined fontSize="small" />
          {!compact && t('view.list')}
        </ToggleButton>
        <ToggleButton value="tags" data-testid="channel-view-tags" sx={{ gap: 0.75, px: 1.25 }}>
          <LocalOfferOutlined fontSize="small" />
          {!compact && t('view.tags')}
        </ToggleButton>
      </ToggleButtonGroup>
      <RefreshButton label={t('refresh')} onClick={onRefresh} testId="channel-refresh" />
      <BulkMenu {...bulk} />
    </Stack>
  );
}
