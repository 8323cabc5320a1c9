import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

interface PriceSelectionBarProps {
  /** Prices selected. */
  count: number;
  /** Prices that match the filters: "select all" is offered while fewer are selected. */
  filteredCount: number;
  onSelectAll(): void;
  onClear(): void;
  onSetPrice(): void;
  onDelete(): void;
}

/** The bar over the price list while prices are selected: how many, and what can be done to them. */
export function PriceSelectionBar({
  count,
  filteredCount,
  onSelectAll,
  onClear,
  onSetPrice,
  onDelete,
}: PriceSelectionBarProps) {
  const { t } = useTranslation('pricing');
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      data-testid="pricing-selection"
      sx={{
        px: 2,
        py: 1,
        alignItems: { sm: 'center' },
        bgcolor: (theme) => alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.08 : 0.16),
      }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600, flex: 1 }} data-testid="pricing-selected-count">
        {t('selection.count', { count })}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }} useFlexGap>
        {filteredCount > count && (
          <Button size="small" onClick={onSelectAll} data-testid="pricing-select-all">
            {t('selection.selectAll', { count: filteredCount })}
          </Button>
        )}
        <Button size="small" onClick={onClear} color="inherit" data-testid="pricing-select-none">
          {t('selection.clear')}
        </Button>
        <Button
          size="small"
          variant="contained"
          startIcon={<PaidOutlined />}
          onClick={onSetPrice}
          data-testid="pricing-edit-selected"
        >
          {t('selection.setPrice')}
        </Button>
        <Button
          size="small"
          variant="outlined"
          color="error"
          startIcon={<DeleteOutlined />}
          onClick={onDelete}
          data-testid="pricing-delete-selected"
        >
          {t('selection.delete')}
        </Button>
      </Stack>
    </Stack>
  );
}
