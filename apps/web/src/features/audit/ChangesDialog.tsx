import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { AuditFieldChange, AuditLogItem } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog.js';
import { Muted, monospace } from '../../components/tasks/TaskCells.js';

/** A value in full: text as it is, anything else as indented JSON; a dash where the side is absent. */
function FullValue({ change, side }: { change: AuditFieldChange; side: 'before' | 'after' }) {
  if (!(side in change)) return <Muted />;
  const value = change[side];
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <pre style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: monospace }}>{text}</pre>
  );
}

/** Every changed field of one audit row with its value before and after; a secret shows only that it changed. */
export function ChangesDialog({ row, open, onClose }: { row: AuditLogItem | null; open: boolean; onClose(): void }) {
  const { t } = useTranslation('audit');
  const entries = Object.entries(row?.changes ?? {});
  return (
    <FormDialog open={open} onClose={onClose} maxWidth="md" testId="audit-details-dialog">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>
        {row &&
          t('details.title', {
            action: t(`actions.${row.action}`),
            resource: t(`resources.${row.resource}`),
            target: row.target_name || `#${row.target_id}`,
          })}
      </DialogTitle>
      <DialogContent dividers>
        <Table size="small" sx={{ '& td': { verticalAlign: 'top' } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('details.field')}</TableCell>
              <TableCell>{t('details.before')}</TableCell>
              <TableCell>{t('details.after')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {entries.map(([field, change]) => (
              <TableRow key={field} data-testid={`audit-field-${field}`}>
                <TableCell sx={{ fontWeight: 600 }}>{field}</TableCell>
                {change.secret ? (
                  <TableCell colSpan={2} sx={{ color: 'text.secondary' }}>
                    {t('secretChanged')}
                  </TableCell>
                ) : (
                  <>
                    <TableCell>
                      <FullValue change={change} side="before" />
                    </TableCell>
                    <TableCell>
                      <FullValue change={change} side="after" />
                    </TableCell>
                  </>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} data-testid="audit-details-close">
          {t('details.close')}
        </Button>
      </DialogActions>
    </FormDialog>
  );
}
