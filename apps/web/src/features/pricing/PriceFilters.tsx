import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { PriceType } from '@one-hub/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { RefreshButton } from '../../components/RefreshButton.js';
import { SearchField } from '../../components/SearchField.js';
import type { OwnerOption } from './priceTable.js';
import type { PricingParams } from './usePricingParams.js';

interface PriceFiltersProps {
  params: PricingParams;
  update(changes: Partial<PricingParams>): void;
  owners: readonly OwnerOption[];
  /** "N of M prices", already translated. */
  count: string;
  onRefresh(): void;
}

/** The price list's toolbar: search, owner and type filters (kept in the URL), the count and refresh. */
export function PriceFilters({ params, update, owners, count, onRefresh }: PriceFiltersProps) {
  const { t } = useTranslation('pricing');
  const search = useCallback((text: string) => update({ search: text }), [update]);
  const ownerChoice = owners.find((owner) => owner.id === params.owner) ?? null;
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      sx={{ p: 2, alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
      useFlexGap
    >
      <SearchField
        value={params.search}
        onSearch={search}
        placeholder={t('searchPlaceholder')}
        label={t('searchLabel')}
        testId="pricing-search"
        delayMs={300}
        sx={{ width: { xs: '100%', sm: 260 } }}
      />
      <Autocomplete
        size="small"
        options={owners as OwnerOption[]}
        value={ownerChoice}
        onChange={(_event, owner) => update({ owner: owner?.id ?? null })}
        getOptionLabel={(owner) => owner.name}
        isOptionEqualToValue={(option, value) => option.id === value.id}
        sx={{ width: { xs: '100%', sm: 220 } }}
        renderOption={({ key, ...props }, owner) => (
          <li key={key} {...props} data-testid={`pricing-filter-owner-option-${owner.id}`}>
            {owner.name}
          </li>
        )}
        renderInput={(input) => (
          <TextField
            {...input}
            label={t('filters.owner')}
            slotProps={{
              ...input.slotProps,
              htmlInput: { ...input.slotProps.htmlInput, 'data-testid': 'pricing-filter-owner' },
            }}
          />
        )}
      />
      <TextField
        select
        size="small"
        label={t('filters.type')}
        value={params.type}
        onChange={(event) => update({ type: event.target.value as PriceType | '' })}
        sx={{ width: { xs: '100%', sm: 160 } }}
        slotProps={{
          inputLabel: { shrink: true },
          select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'pricing-filter-type' } as object },
        }}
      >
        <MenuItem value="" data-testid="pricing-filter-type-all">
          {t('filters.allTypes')}
        </MenuItem>
        <MenuItem value="tokens" data-testid="pricing-filter-type-tokens">
          {t('type.tokens')}
        </MenuItem>
        <MenuItem value="times" data-testid="pricing-filter-type-times">
          {t('type.times')}
        </MenuItem>
      </TextField>
      <Stack
        direction="row"
        spacing={1}
        sx={{ flex: 1, alignItems: 'center', justifyContent: { xs: 'space-between', sm: 'flex-end' } }}
      >
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="pricing-count">
          {count}
        </Typography>
        <RefreshButton label={t('refresh')} onClick={onRefresh} testId="pricing-refresh" />
      </Stack>
    </Stack>
  );
}
