import CloseRounded from '@mui/icons-material/CloseRounded';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import SearchRounded from '@mui/icons-material/SearchRounded';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UserGroupView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { OwnerAvatar } from '../../components/OwnerAvatar.js';
import { useGroupName } from '../../hooks/useGroupName.js';

export interface ModelPriceFiltersProps {
  search: string;
  onSearch(value: string): void;
  groups: UserGroupView[];
  group: string;
  ownGroup: string | undefined;
  onGroup(symbol: string): void;
  owners: Array<{ owner: string; count: number }>;
  total: number;
  owner: string;
  onOwner(owner: string): void;
  ownerIcons: Record<string, string>;
}

function SearchField({ search, onSearch }: Pick<ModelPriceFiltersProps, 'search' | 'onSearch'>) {
  const { t } = useTranslation('modelPrice');
  return (
    <TextField
      value={search}
      onChange={(event) => onSearch(event.target.value)}
      placeholder={t('searchPlaceholder')}
      size="small"
      fullWidth
      slotProps={{
        htmlInput: { 'data-testid': 'model-price-search', 'aria-label': t('search') },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchRounded fontSize="small" />
            </InputAdornment>
          ),
          endAdornment: search ? (
            <InputAdornment position="end">
              <IconButton size="small" edge="end" aria-label={t('clearSearch')} onClick={() => onSearch('')}>
                <CloseRounded fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : null,
        },
      }}
    />
  );
}

export function formatRatio(ratio: number): string {
  return `×${Number(ratio.toPrecision(6))}`;
}

function GroupSelect({ groups, group, ownGroup, onGroup }: ModelPriceFiltersProps) {
  const { t } = useTranslation('modelPrice');
  const groupName = useGroupName();
  if (groups.length === 0) return null;
  return (
    <TextField
      select
      size="small"
      label={t('group')}
      value={group}
      onChange={(event) => onGroup(event.target.value)}
      sx={{ width: { xs: '100%', sm: 300 }, flexShrink: 0 }}
      slotProps={{
        select: {
          SelectDisplayProps: { 'data-testid': 'model-price-group' } as object,
          renderValue: (symbol) => {
            const entry = groups.find((candidate) => candidate.symbol === symbol);
            return entry ? `${groupName(entry)} (${formatRatio(entry.ratio)})` : String(symbol);
          },
        },
      }}
    >
      {groups.map((entry) => (
        <MenuItem key={entry.symbol} value={entry.symbol} data-testid={`model-price-group-${entry.symbol}`}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', width: '100%' }}>
            <span>{groupName(entry)}</span>
            {entry.symbol === ownGroup && (
              <Chip size="small" label={t('yourGroup')} sx={{ height: 20, fontSize: '0.6875rem' }} />
            )}
            <Box component="span" sx={{ flex: 1 }} />
            <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
              {formatRatio(entry.ratio)}
            </Typography>
          </Stack>
        </MenuItem>
      ))}
    </TextField>
  );
}

function OwnerChips({ owners, total, owner, onOwner, ownerIcons }: ModelPriceFiltersProps) {
  const { t } = useTranslation('modelPrice');
  if (owners.length === 0) return null;
  const chip = (value: string, label: string, count: number) => {
    const selected = owner === value;
    return (
      <Chip
        key={value || 'all'}
        label={t('ownerChip', { owner: label, count })}
        avatar={value ? <OwnerAvatar name={label} icon={ownerIcons[value]} size={20} /> : undefined}
        color={selected ? 'primary' : 'default'}
        variant={selected ? 'filled' : 'outlined'}
        onClick={() => onOwner(value)}
        aria-pressed={selected}
        data-testid={value ? `model-price-owner-${value}` : 'model-price-owner-all'}
        sx={{ fontWeight: selected ? 600 : 500 }}
      />
    );
  };
  return (
    <Box role="group" aria-label={t('owners')}>
      <Typography variant="overline" component="p" sx={{ color: 'text.secondary', mb: 0.5 }}>
        {t('owners')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {chip('', t('allOwners'), total)}
        {owners.map((entry) => chip(entry.owner, entry.owner || t('unknownOwner'), entry.count))}
      </Stack>
    </Box>
  );
}

/** Search, the group prices are shown for, and the maker chips. */
export function ModelPriceFilters(props: ModelPriceFiltersProps) {
  const { t } = useTranslation('modelPrice');
  const groupName = useGroupName();
  const selected = props.groups.find((entry) => entry.symbol === props.group);
  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 2.5 }, '&:last-child': { pb: { xs: 2, sm: 2.5 } } }}>
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <SearchField search={props.search} onSearch={props.onSearch} />
            <GroupSelect {...props} />
          </Stack>
          {selected && (
            <Stack
              direction="row"
              spacing={1}
              sx={{ alignItems: 'flex-start', color: 'text.secondary' }}
              data-testid="model-price-ratio"
            >
              <InfoOutlined sx={{ fontSize: 18, mt: '1px' }} />
              <Typography variant="body2">
                {t('ratioNote', { group: groupName(selected), ratio: formatRatio(selected.ratio) })}
              </Typography>
            </Stack>
          )}
          <OwnerChips {...props} />
        </Stack>
      </CardContent>
    </Card>
  );
}
