import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/notify.js';
import { ListEmptyState } from './ListEmptyState.js';

interface ListLoadErrorProps {
  error: unknown;
  onRetry(): void;
  testId: string;
}

/** Why a list's first page could not be loaded, with a button to try again. */
export function ListLoadError({ error, onRetry, testId }: ListLoadErrorProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 2 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('common:retry')}
          </Button>
        }
        data-testid={testId}
      >
        {describeError(error)}
      </Alert>
    </Box>
  );
}

interface ListNoRowsProps {
  icon: ComponentType<SvgIconProps>;
  testId: string;
  /** A search or filter is in force: the list is empty because nothing matched it. */
  filtered: boolean;
  /** Title and text when there are no rows at all… */
  title: string;
  description: string;
  /** …and when nothing matched the search or filters. */
  noMatchTitle: string;
  noMatchDescription: string;
  /** The button that clears the search or filters. */
  clearLabel: string;
  onClear(): void;
  clearTestId?: string;
  /** The button offered when there are no rows at all; none when left out. */
  create?: { label: string; onClick(): void };
}

/** A list's empty state: "nothing yet, create one" or "nothing matched, clear the search". */
export function ListNoRows({
  icon,
  testId,
  filtered,
  title,
  description,
  noMatchTitle,
  noMatchDescription,
  clearLabel,
  onClear,
  clearTestId,
  create,
}: ListNoRowsProps) {
  let action = null;
  if (filtered) {
    action = (
      <Button onClick={onClear} data-testid={clearTestId}>
        {clearLabel}
      </Button>
    );
  } else if (create) {
    action = (
      <Button variant="outlined" startIcon={<Add />} onClick={create.onClick}>
        {create.label}
      </Button>
    );
  }
  return (
    <ListEmptyState
      icon={icon}
      title={filtered ? noMatchTitle : title}
      description={filtered ? noMatchDescription : description}
      action={action}
      testId={testId}
    />
  );
}
