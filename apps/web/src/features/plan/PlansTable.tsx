import CardGiftcardOutlined from '@mui/icons-material/CardGiftcardOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { PlanSortField, PlanView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { BudgetAllowance } from '../../components/budgets/BudgetAllowance.js';
import type { ListRows } from '../../components/ListPage.js';
import { ActionsCell, ColumnHeads, type ListColumn, ListTable } from '../../components/ListTable.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { RowIconButton } from '../../components/RowIconButton.js';
import { StateChip } from '../../components/StateChip.js';
import { useGroupName } from '../../hooks/useGroupName.js';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { formatPaymentAmount } from '../../lib/format.js';

export interface PlanRowHandlers {
  onEdit(plan: PlanView): void;
  onGrant(plan: PlanView): void;
  onSubscribers(plan: PlanView): void;
  onDelete(plan: PlanView): void;
}

function PlanActions({ plan, onEdit, onGrant, onSubscribers, onDelete }: { plan: PlanView } & PlanRowHandlers) {
  const { t } = useTranslation('plan');
  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
      <RowIconButton
        label={t('actions.subscribersNamed', { name: plan.name })}
        tooltip={t('actions.subscribers')}
        onClick={() => onSubscribers(plan)}
        testId={`plan-subscribers-${plan.id}`}
      >
        <PeopleOutlined fontSize="small" />
      </RowIconButton>
      <RowIconButton
        label={t('actions.grantNamed', { name: plan.name })}
        tooltip={t('actions.grant')}
        onClick={() => onGrant(plan)}
        testId={`plan-grant-${plan.id}`}
      >
        <CardGiftcardOutlined fontSize="small" />
      </RowIconButton>
      <RowIconButton
        label={t('actions.editNamed', { name: plan.name })}
        tooltip={t('actions.edit')}
        onClick={() => onEdit(plan)}
        testId={`plan-edit-${plan.id}`}
      >
        <EditOutlined fontSize="small" />
      </RowIconButton>
      <RowIconButton
        label={t('actions.deleteNamed', { name: plan.name })}
        tooltip={t('actions.delete')}
        onClick={() => onDelete(plan)}
        danger
        testId={`plan-delete-${plan.id}`}
      >
        <DeleteOutlined fontSize="small" />
      </RowIconButton>
    </Stack>
  );
}

function EnabledChip({ plan }: { plan: PlanView }) {
  const { t } = useTranslation('plan');
  return (
    <StateChip
      label={plan.enable ? t('status.enabled') : t('status.disabled')}
      state={plan.enable ? 'enabled' : 'disabled'}
      color={plan.enable ? 'success' : 'secondary'}
      testId={`plan-status-${plan.id}`}
    />
  );
}

/** The group a plan moves subscribers into, or that it keeps theirs. */
function useGroupText() {
  const { t } = useTranslation('plan');
  const groupName = useGroupName();
  const groups = useUserGroupMap().data ?? {};
  return (plan: PlanView) => (plan.group ? groupName(groups[plan.group], plan.group) : t('columns.keepGroup'));
}

function NameCell({ plan }: { plan: PlanView }) {
  return (
    <Box sx={{ minWidth: 0, maxWidth: 240 }}>
      <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} data-testid={`plan-name-${plan.id}`}>
        {plan.name}
      </Typography>
      {plan.description && (
        <Typography variant="caption" noWrap component="p" sx={{ color: 'text.secondary' }}>
          {plan.description}
        </Typography>
      )}
    </Box>
  );
}

function PlanCard({ plan, ...handlers }: { plan: PlanView } & PlanRowHandlers) {
  const { t } = useTranslation('plan');
  const groupText = useGroupText();
  const facts: CardFact[] = [
    [t('columns.price'), formatPaymentAmount(plan.price, plan.currency)],
    [t('columns.duration'), t('columns.days', { count: plan.duration_days })],
    [t('columns.group'), groupText(plan)],
    [t('columns.sort'), String(plan.sort)],
    [t('columns.allowance'), <BudgetAllowance key="allowance" budgets={plan.budgets} />],
  ];
  return (
    <RowCard
      testId={`plan-row-${plan.id}`}
      facts={facts}
      header={
        <>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <NameCell plan={plan} />
          </Box>
          <EnabledChip plan={plan} />
        </>
      }
      footer={<PlanActions plan={plan} {...handlers} />}
      footerJustify="flex-end"
    />
  );
}

type PlansTableProps = ListRows<PlanView> & PlanRowHandlers;

/** The plan list: a table on wide screens, cards on narrow ones. */
export function PlansTable({ rows: plans, loading, order, onSort, compact, ...handlers }: PlansTableProps) {
  const { t } = useTranslation('plan');
  const groupText = useGroupText();
  const columns: ListColumn<PlanSortField>[] = [
    { label: t('columns.id'), field: 'id' },
    { label: t('columns.name'), field: 'name' },
    { label: t('columns.price'), field: 'price', align: 'right' },
    { label: t('columns.duration'), field: 'duration_days', align: 'right' },
    { label: t('columns.allowance') },
    { label: t('columns.group') },
    { label: t('columns.status'), field: 'enable' },
    { label: t('columns.sort'), field: 'sort', align: 'right' },
  ];
  return (
    <ListTable
      testId="plan-list"
      loading={loading && plans.length === 0}
      compact={compact}
      cards={plans.map((plan) => <PlanCard key={plan.id} plan={plan} {...handlers} />)}
      cardHeight={200}
      minWidth={960}
      columns={columns.length + 1}
      actionsLabel={t('columns.actions')}
      head={<ColumnHeads columns={columns} order={order} onSort={onSort} testIdPrefix="plan-sort" />}
    >
      {plans.map((plan) => (
        <TableRow key={plan.id} hover data-testid={`plan-row-${plan.id}`}>
          <TableCell sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>{plan.id}</TableCell>
          <TableCell>
            <NameCell plan={plan} />
          </TableCell>
          <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`plan-price-${plan.id}`}>
            {formatPaymentAmount(plan.price, plan.currency)}
          </TableCell>
          <TableCell align="right">{t('columns.days', { count: plan.duration_days })}</TableCell>
          <TableCell data-testid={`plan-allowance-${plan.id}`}>
            <BudgetAllowance budgets={plan.budgets} />
          </TableCell>
          <TableCell>{groupText(plan)}</TableCell>
          <TableCell>
            <EnabledChip plan={plan} />
          </TableCell>
          <TableCell align="right">{plan.sort}</TableCell>
          <ActionsCell>
            <PlanActions plan={plan} {...handlers} />
          </ActionsCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
