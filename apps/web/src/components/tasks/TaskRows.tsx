import { RowsView } from './RowsView.js';
import { type TaskColumn, TaskIdCell, TaskStatus } from './TaskCells.js';

/** What `TaskListPage` hands a kind's table: the page of tasks and the list state it shows them in. */
export interface TaskTableProps<Task> {
  tasks: Task[];
  loading: boolean;
  /** Everyone's tasks: the owner columns show. */
  admin: boolean;
  compact: boolean;
  order: string;
  onSort(order: string): void;
}

interface TaskRowsProps<Task> {
  table: TaskTableProps<Task>;
  /** Every column; those marked `adminOnly` show only on everyone's list. */
  columns: readonly TaskColumn<Task>[];
  /** `data-testid`s are `${testIdPrefix}-list`, `-row-<id>`, `-card-id-<id>`, `-status-<id>`, … */
  testIdPrefix: string;
  /** The task's own id, atop its card with a copy button, and the column that shows it on wide screens. */
  taskId(task: Task): string;
  idColumn: string;
  copyIdLabel: string;
}

/** The badge of a task's state, in its status column and atop its card. */
export function taskStatusCell(testIdPrefix: string) {
  return (task: { id: number; status: string }) => (
    <TaskStatus status={task.status} testId={`${testIdPrefix}-status-${task.id}`} />
  );
}

/** A kind's tasks as a table on wide screens and as cards (id and status on top) on phones. */
export function TaskRows<Task extends { id: number; status: string }>({
  table,
  columns,
  testIdPrefix,
  taskId,
  idColumn,
  copyIdLabel,
}: TaskRowsProps<Task>) {
  const status = taskStatusCell(testIdPrefix);
  return (
    <RowsView
      rows={table.tasks}
      columns={columns.filter((column) => table.admin || !column.adminOnly)}
      rowKey={(task) => task.id}
      loading={table.loading}
      compact={table.compact}
      order={table.order}
      onSort={table.onSort}
      testIdPrefix={testIdPrefix}
      cardHeader={(task) => ({
        title: (
          <TaskIdCell value={taskId(task)} copyLabel={copyIdLabel} testId={`${testIdPrefix}-card-id-${task.id}`} />
        ),
        badge: status(task),
      })}
      cardSkip={[idColumn, 'status']}
    />
  );
}
