import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import { useTranslation } from 'react-i18next';
import { type SelectionAction, SelectionBar } from '../../components/SelectionBar.js';

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
  const selectAll: SelectionAction[] =
    filteredCount > count
      ? [
          {
            label: t('selection.selectAll', { count: filteredCount }),
            onClick: onSelectAll,
            testId: 'pricing-select-all',
          },
        ]
      : [];
  return (
    <SelectionBar
      placement={{ kind: 'inline' }}
      testId="pricing-selection"
      countText={t('selection.count', { count })}
      countTestId="pricing-selected-count"
      actions={[
        ...selectAll,
        { label: t('selection.clear'), onClick: onClear, color: 'inherit', testId: 'pricing-select-none' },
        {
          label: t('selection.setPrice'),
          onClick: onSetPrice,
          variant: 'contained',
          icon: <PaidOutlined />,
          testId: 'pricing-edit-selected',
        },
        {
          label: t('selection.delete'),
          onClick: onDelete,
          variant: 'outlined',
          color: 'error',
          icon: <DeleteOutlined />,
          testId: 'pricing-delete-selected',
        },
      ]}
    />
  );
}
