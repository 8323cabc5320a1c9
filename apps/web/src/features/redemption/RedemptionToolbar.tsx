import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { RefreshButton } from '../../components/RefreshButton.js';
import { SearchField } from '../../components/SearchField.js';
import { redemptionState } from './RedemptionStatusChip.js';
import { REDEMPTION_STATUS_FILTERS } from './useRedemptionListParams.js';

interface RedemptionToolbarProps {
  keyword: string;
  status: number;
  onSearch(keyword: string): void;
  onStatus(status: number): void;
  onRefresh(): void;
}

/** Search by id or name, the status filter and a refresh button. */
export function RedemptionToolbar({ keyword, status, onSearch, onStatus, onRefresh }: RedemptionToolbarProps) {
  const { t } = useTranslation('redemption');
  return (
    <Stack direction="row" spacing={1} sx={{ p: 2, alignItems: 'center' }}>
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', gap: 1, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
        <SearchField
          value={keyword}
          onSearch={onSearch}
          placeholder={t('searchPlaceholder')}
          label={t('searchLabel')}
          testId="redemption-search"
          sx={{ flex: 1, minWidth: 0, maxWidth: { sm: 320 } }}
        />
        <TextField
          select
          size="small"
          value={status}
          onChange={(event) => onStatus(Number(event.target.value))}
          sx={{ width: { xs: '100%', sm: 180 }, flexShrink: 0 }}
          slotProps={{ htmlInput: { 'aria-label': t('filterStatus') } }}
          data-testid="redemption-status-filter"
        >
          {REDEMPTION_STATUS_FILTERS.map((value) => (
            <MenuItem key={value} value={value} data-testid={`redemption-status-option-${value}`}>
              {value === 0 ? t('status.all') : t(`status.${redemptionState(value)}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <RefreshButton label={t('refresh')} onClick={onRefresh} testId="redemption-refresh" />
    </Stack>
  );
}
