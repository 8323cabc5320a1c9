import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { ChannelStatus, ChannelTagFolding, type ProviderView } from '@one-hub/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchField } from '../../components/SearchField.js';
import { type ChannelFilters, emptyChannelFilters } from './useChannelListParams.js';

/** The name search writes to the URL a moment after typing stops; the URL stays the source of truth. */
export function ChannelSearchBox({ name, onSearch }: { name: string; onSearch(name: string): void }) {
  const { t } = useTranslation('channel');
  return (
    <SearchField
      value={name}
      onSearch={onSearch}
      placeholder={t('searchPlaceholder')}
      label={t('searchLabel')}
      testId="channel-search"
      sx={{ width: { xs: '100%', sm: 260 } }}
    />
  );
}

type Draft = Omit<ChannelFilters, 'name'> & { key: string; filter_tag: number };

interface ChannelFilterPanelProps {
  filters: ChannelFilters;
  keyFilter: string;
  folding: number;
  tagView: boolean;
  providers: ProviderView[];
  groups: string[];
  tags: string[];
  onApply(filters: Omit<ChannelFilters, 'name'>, key: string, folding: number): void;
}

const STATUSES = [ChannelStatus.enabled, ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled] as const;
const STATUS_NAMES = { 1: 'enabled', 2: 'disabled', 3: 'autoDisabled' } as const;

interface SelectOption {
  value: string | number;
  label: string;
  testId?: string;
}

/** The names offered, plus the one chosen even if it is no longer among them, each once. */
function namesWith(names: readonly string[], chosen: string): SelectOption[] {
  return [...new Set([...names, ...(chosen ? [chosen] : [])])].map((name) => ({ value: name, label: name }));
}

function toDraft(filters: ChannelFilters, key: string, folding: number): Draft {
  const { name: _name, ...rest } = filters;
  return { ...rest, key, filter_tag: folding };
}

/** Every filter of reference §1.8 but the name (the search box); applied together (button or Enter). */
export function ChannelFilterPanel({
  filters,
  keyFilter,
  folding,
  tagView,
  providers,
  groups,
  tags,
  onApply,
}: ChannelFilterPanelProps) {
  const { t } = useTranslation('channel');
  const [draft, setDraft] = useState<Draft>(() => toDraft(filters, keyFilter, folding));
  useEffect(() => setDraft(toDraft(filters, keyFilter, folding)), [filters, keyFilter, folding]);

  const set = (field: keyof Draft) => (event: { target: { value: string | number } }) =>
    setDraft((current) => ({ ...current, [field]: event.target.value }));
  const apply = (next: Draft) => {
    const { key, filter_tag, ...rest } = next;
    const trimmed = Object.fromEntries(
      Object.entries(rest).map(([field, value]) => [field, typeof value === 'string' ? value.trim() : Number(value)]),
    ) as Omit<ChannelFilters, 'name'>;
    onApply(trimmed, key.trim(), Number(filter_tag));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(draft);
  };
  const cell = { xs: 12, sm: 6, md: 4, lg: 3 } as const;
  const textField = (field: 'models' | 'other' | 'test_model', hint: string) => (
    <Grid size={cell}>
      <TextField
        size="small"
        fullWidth
        label={t(`filters.${field}`)}
        placeholder={hint}
        value={draft[field]}
        onChange={set(field)}
        slotProps={{ htmlInput: { 'data-testid': `channel-filter-${field}` } }}
      />
    </Grid>
  );

  const selectField = (field: 'type' | 'status' | 'group' | 'tag', options: SelectOption[]) => (
    <Grid size={cell}>
      <TextField
        select
        size="small"
        fullWidth
        label={t(`filters.${field}`)}
        value={draft[field]}
        onChange={set(field)}
        data-testid={`channel-filter-${field}`}
      >
        {options.map((option) => (
          <MenuItem key={option.value} value={option.value} data-testid={option.testId}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
    </Grid>
  );

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ px: 2, pb: 2 }} data-testid="channel-filters">
      <Grid container spacing={1.5}>
        {selectField('type', [
          { value: 0, label: t('filters.any') },
          ...providers.map((provider) => ({
            value: provider.type,
            label: provider.name,
            testId: `channel-filter-type-${provider.type}`,
          })),
        ])}
        {selectField('status', [
          { value: 0, label: t('filters.any') },
          ...STATUSES.map((status) => ({
            value: status,
            label: t(`status.${STATUS_NAMES[status]}`),
            testId: `channel-filter-status-${status}`,
          })),
        ])}
        {selectField('group', [{ value: '', label: t('filters.any') }, ...namesWith(groups, draft.group)])}
        {selectField('tag', [
          { value: '', label: t('filters.any') },
          ...namesWith(tags, draft.tag).map((option) => ({ ...option, testId: `channel-filter-tag-${option.value}` })),
        ])}
        {textField('models', t('filters.modelsHint'))}
        {textField('other', t('filters.otherHint'))}
        {textField('test_model', t('filters.testModelHint'))}
        <Grid size={cell}>
          <TextField
            size="small"
            fullWidth
            type="password"
            autoComplete="off"
            label={t('filters.key')}
            placeholder={t('filters.keyHint')}
            value={draft.key}
            onChange={set('key')}
            slotProps={{ htmlInput: { 'data-testid': 'channel-filter-key' } }}
          />
        </Grid>
        {tagView && (
          <Grid size={cell}>
            <TextField
              select
              size="small"
              fullWidth
              label={t('filters.folding')}
              value={draft.filter_tag}
              onChange={set('filter_tag')}
              data-testid="channel-filter-folding"
            >
              <MenuItem value={ChannelTagFolding.folded}>{t('filters.foldingAll')}</MenuItem>
              <MenuItem value={ChannelTagFolding.untaggedOnly}>{t('filters.foldingUntagged')}</MenuItem>
              <MenuItem value={ChannelTagFolding.tagsOnly}>{t('filters.foldingTags')}</MenuItem>
            </TextField>
          </Grid>
        )}
        <Grid size="grow" sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'flex-end', gap: 1 }}>
          <Button
            color="inherit"
            onClick={() => apply({ ...toDraft(emptyChannelFilters, '', folding), filter_tag: tagView ? 0 : folding })}
            data-testid="channel-filter-reset"
          >
            {t('filters.reset')}
          </Button>
          <Button type="submit" variant="contained" startIcon={<Search />} data-testid="channel-filter-submit">
            {t('filters.apply')}
          </Button>
        </Grid>
      </Grid>
    </Box>
  );
}
