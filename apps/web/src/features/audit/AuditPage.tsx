import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import { AUDIT_ACTIONS, AUDIT_RESOURCES, type AuditLogItem, isRootRole } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportMenu } from '../../components/ExportButtons.js';
import type { FilterField } from '../../components/tasks/FilterBar.js';
import { type TaskFilterSetup, TaskListPage } from '../../components/tasks/TaskListPage.js';
import { useSession } from '../../hooks/useSession.js';
import { useWords } from '../../i18n/useWords.js';
import { AuditTable } from './AuditTable.js';
import { type AuditFilters, auditExportHref, useAuditLogs } from './audit.api.js';
import { ChangesDialog } from './ChangesDialog.js';
import { auditDraft, auditFromDraft, emptyAuditFilters, useAuditListParams } from './useAuditListParams.js';

/** An administrator below root reads only its own actions: the actor filter is root's. */
const filterSetup: TaskFilterSetup<AuditFilters> = {
  toDraft: auditDraft,
  fromDraft: auditFromDraft,
  none: emptyAuditFilters,
  adminOnly: ['actor_id'],
};

function useAuditFilterFields(root: boolean): FilterField[] {
  const { t } = useTranslation('audit');
  const anyValue = t('filters.any');
  return [
    {
      key: 'resource',
      label: t('filters.resource'),
      kind: 'select',
      options: [
        { value: '', label: anyValue },
        ...AUDIT_RESOURCES.map((value) => ({ value, label: t(`resources.${value}`) })),
      ],
    },
    {
      key: 'action',
      label: t('filters.action'),
      kind: 'select',
      options: [
        { value: '', label: anyValue },
        ...AUDIT_ACTIONS.map((value) => ({ value, label: t(`actions.${value}`) })),
      ],
    },
    ...(root ? [{ key: 'actor_id', label: t('filters.actor_id'), kind: 'number' as const }] : []),
    { key: 'target_id', label: t('filters.target_id'), kind: 'text' },
    { key: 'start', label: t('filters.start'), kind: 'datetime' },
    { key: 'end', label: t('filters.end'), kind: 'datetime' },
  ];
}

/** Who changed what through the management API: every change for root, an administrator's own otherwise. */
export function AuditPage() {
  const { t } = useTranslation('audit');
  const words = useWords('audit', 'taskList');
  const isRoot = isRootRole(useSession().user?.role);
  const [params, update] = useAuditListParams();
  const rows = useAuditLogs(isRoot, params);
  const [opened, setOpened] = useState<AuditLogItem | null>(null);
  // Keeps the last row while the dialog fades out.
  const [shown, setShown] = useState<AuditLogItem | null>(null);
  const fields = useAuditFilterFields(isRoot);

  return (
    <TaskListPage
      words={words}
      total={(count) => t('totalCount', { count })}
      admin={isRoot}
      testIdPrefix="audit"
      icon={ManageSearchOutlined}
      query={rows}
      params={params}
      onChange={update}
      fields={fields}
      filters={filterSetup}
      countActions={<ExportMenu hrefOf={(format) => auditExportHref(isRoot, params, format)} testId="audit-export" />}
      dialogs={<ChangesDialog row={shown} open={opened !== null} onClose={() => setOpened(null)} />}
    >
      {(table) => (
        <AuditTable
          rows={table.tasks}
          loading={table.loading}
          compact={table.compact}
          order={table.order}
          onSort={table.onSort}
          onOpen={(row) => {
            setShown(row);
            setOpened(row);
          }}
        />
      )}
    </TaskListPage>
  );
}
