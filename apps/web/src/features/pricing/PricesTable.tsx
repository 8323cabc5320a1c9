import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { PriceView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { EditDeleteActions } from '../../components/EditDeleteActions.js';
import { ActionsCell } from '../../components/ListTable.js';
import { ModelText, OwnerLabel, PriceFigures, TypeChip } from './PriceParts.js';
import type { OwnerOption } from './priceTable.js';

export interface PriceRowHandlers {
  onEdit(price: PriceView): void;
  onDelete(price: PriceView): void;
}

interface PricesTableProps extends PriceRowHandlers {
  prices: readonly PriceView[];
  loading: boolean;
  owners: ReadonlyMap<number, OwnerOption>;
  selected: ReadonlySet<string>;
  onToggle(model: string): void;
  /** Selects or clears every row of `prices`. */
  onToggleAll(select: boolean): void;
  compact: boolean;
}

const PLACEHOLDERS = ['first', 'second', 'third', 'fourth', 'fifth'];

function RowActions({ price, onEdit, onDelete }: { price: PriceView } & PriceRowHandlers) {
  const { t } = useTranslation('pricing');
  return (
    <EditDeleteActions
      editLabel={t('edit')}
      deleteLabel={t('delete')}
      editAriaLabel={t('editNamed', { model: price.model })}
      deleteAriaLabel={t('deleteNamed', { model: price.model })}
      onEdit={() => onEdit(price)}
      onDelete={() => onDelete(price)}
      editTestId="pricing-edit"
      deleteTestId="pricing-delete"
    />
  );
}

function LockedMark({ locked }: { locked: boolean }) {
  const { t } = useTranslation('pricing');
  if (!locked) {
    return (
      <Typography variant="body2" sx={{ color: 'text.disabled' }} data-testid="pricing-locked">
        —
      </Typography>
    );
  }
  return (
    <Tooltip title={t('lockedHint')}>
      <LockOutlined
        sx={{ fontSize: 18, color: 'warning.main', verticalAlign: 'middle' }}
        data-testid="pricing-locked"
        aria-label={t('locked')}
      />
    </Tooltip>
  );
}

function PriceCard({
  price,
  owners,
  selected,
  onToggle,
  onEdit,
  onDelete,
}: {
  price: PriceView;
  owners: ReadonlyMap<number, OwnerOption>;
  selected: boolean;
  onToggle(model: string): void;
} & PriceRowHandlers) {
  const { t } = useTranslation('pricing');
  return (
    <Card variant="outlined" sx={{ boxShadow: 'none' }} data-testid={`pricing-row-${price.model}`}>
      <Stack direction="row" spacing={1} sx={{ p: 1.5, pb: 1, alignItems: 'flex-start' }}>
        <Checkbox
          size="small"
          checked={selected}
          onChange={() => onToggle(price.model)}
          sx={{ p: 0.5, mt: -0.25 }}
          slotProps={{
            input: {
              'aria-label': t('selectNamed', { model: price.model }),
              'data-testid': 'pricing-select',
            } as object,
          }}
        />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <ModelText model={price.model} locked={price.locked} testId="pricing-model" />
          <Box sx={{ mt: 0.5 }}>
            <OwnerLabel id={price.channel_type} owners={owners} testId="pricing-owner" />
          </Box>
        </Box>
        <TypeChip type={price.type} testId="pricing-type" />
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5, px: 2, pb: 1.5 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
            {t('columns.input')}
          </Typography>
          <PriceFigures price={price} side="input" testId="pricing-input" />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
            {t('columns.output')}
          </Typography>
          <PriceFigures price={price} side="output" testId="pricing-output" />
        </Box>
      </Box>
      <Divider />
      <Box sx={{ px: 1, py: 0.5 }}>
        <RowActions price={price} onEdit={onEdit} onDelete={onDelete} />
      </Box>
    </Card>
  );
}

/** The price list: a table on wide screens, cards on narrow ones, each row selectable. */
export function PricesTable({
  prices,
  loading,
  owners,
  selected,
  onToggle,
  onToggleAll,
  compact,
  onEdit,
  onDelete,
}: PricesTableProps) {
  const { t } = useTranslation('pricing');
  const handlers = { onEdit, onDelete };

  if (compact) {
    return (
      <Stack spacing={1.5} sx={{ p: 1.5 }} data-testid="pricing-list">
        {loading && prices.length === 0
          ? PLACEHOLDERS.slice(0, 3).map((key) => <Skeleton key={key} variant="rounded" height={150} />)
          : prices.map((price) => (
              <PriceCard
                key={price.model}
                price={price}
                owners={owners}
                selected={selected.has(price.model)}
                onToggle={onToggle}
                {...handlers}
              />
            ))}
      </Stack>
    );
  }

  const selectedHere = prices.filter((price) => selected.has(price.model)).length;
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{ minWidth: 900, '& td, & th': { px: 1.5 } }}
        data-testid="pricing-list"
        aria-label={t('tableLabel')}
      >
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                size="small"
                checked={prices.length > 0 && selectedHere === prices.length}
                indeterminate={selectedHere > 0 && selectedHere < prices.length}
                onChange={(event) => onToggleAll(event.target.checked)}
                slotProps={{ input: { 'aria-label': t('selectPage'), 'data-testid': 'pricing-select-page' } as object }}
              />
            </TableCell>
            <TableCell>{t('columns.model')}</TableCell>
            <TableCell>{t('columns.owner')}</TableCell>
            <TableCell>{t('columns.type')}</TableCell>
            <TableCell>{t('columns.input')}</TableCell>
            <TableCell>{t('columns.output')}</TableCell>
            <TableCell align="center">{t('columns.locked')}</TableCell>
            <ActionsCell>{t('columns.actions')}</ActionsCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && prices.length === 0
            ? PLACEHOLDERS.map((key) => (
                <TableRow key={key}>
                  <TableCell colSpan={8}>
                    <Skeleton variant="text" height={36} />
                  </TableCell>
                </TableRow>
              ))
            : prices.map((price) => (
                <TableRow
                  key={price.model}
                  hover
                  selected={selected.has(price.model)}
                  data-testid={`pricing-row-${price.model}`}
                >
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      checked={selected.has(price.model)}
                      onChange={() => onToggle(price.model)}
                      slotProps={{
                        input: {
                          'aria-label': t('selectNamed', { model: price.model }),
                          'data-testid': 'pricing-select',
                        } as object,
                      }}
                    />
                  </TableCell>
                  <TableCell sx={{ minWidth: 180, maxWidth: 300 }}>
                    <ModelText model={price.model} testId="pricing-model" />
                  </TableCell>
                  <TableCell sx={{ maxWidth: 180 }}>
                    <OwnerLabel id={price.channel_type} owners={owners} testId="pricing-owner" />
                  </TableCell>
                  <TableCell>
                    <TypeChip type={price.type} testId="pricing-type" />
                  </TableCell>
                  <TableCell>
                    <PriceFigures price={price} side="input" testId="pricing-input" />
                  </TableCell>
                  <TableCell>
                    <PriceFigures price={price} side="output" testId="pricing-output" />
                  </TableCell>
                  <TableCell align="center">
                    <LockedMark locked={price.locked} />
                  </TableCell>
                  <ActionsCell>
                    <RowActions price={price} {...handlers} />
                  </ActionsCell>
                </TableRow>
              ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
