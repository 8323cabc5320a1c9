import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import type { ReactElement, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** One entry of an action menu: an icon and a text that runs an action or follows a link. */
export interface MenuAction {
  /** Also the item's key: unique within the menu. */
  testId: string;
  icon: ReactNode;
  label: ReactNode;
  /** A second line under the label. */
  hint?: string;
  /** Runs after the menu has closed. */
  onClick?(): void;
  /** A console path to go to instead of an action. */
  to?: string;
  /** Destructive: red, and set apart by a line from the items before it. */
  danger?: boolean;
  disabled?: boolean;
  /** A tooltip over the item (why it is disabled); a disabled item gets no pointer events, so a span carries it. */
  tooltip?: string;
}

function menuItem(action: MenuAction, close: () => void, dense: boolean): ReactElement {
  const { testId, icon, label, hint, onClick, to, danger, disabled } = action;
  const run = () => {
    close();
    onClick?.();
  };
  const link = to === undefined ? {} : { component: RouterLink, to };
  return (
    <MenuItem
      key={testId}
      dense={dense}
      {...link}
      onClick={run}
      disabled={disabled}
      data-testid={testId}
      sx={danger ? { color: 'error.main' } : undefined}
    >
      <ListItemIcon sx={danger ? { color: 'inherit' } : undefined}>{icon}</ListItemIcon>
      {hint === undefined ? <ListItemText>{label}</ListItemText> : <ListItemText primary={label} secondary={hint} />}
    </MenuItem>
  );
}

/**
 * The items of an action menu (a row's "more" menu, the avatar menu), to put straight inside a MUI
 * `Menu` (an array, not a wrapper, so the menu still sees its items for focus and keys). Items
 * given as `false` are left out; every item closes the menu before it acts.
 */
export function menuItems(actions: (MenuAction | false)[], close: () => void, dense = false): ReactElement[] {
  const shown = actions.filter((action): action is MenuAction => action !== false);
  return shown.flatMap((action, index) => {
    let item = menuItem(action, close, dense);
    if (action.tooltip !== undefined) {
      item = (
        <Tooltip key={action.testId} title={action.tooltip} placement="left">
          <span>{item}</span>
        </Tooltip>
      );
    }
    const startsDanger = action.danger && index > 0 && !shown[index - 1]?.danger;
    return startsDanger ? [<Divider key={`${action.testId}-divider`} />, item] : [item];
  });
}
