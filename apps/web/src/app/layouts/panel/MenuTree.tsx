import ExpandLessRounded from '@mui/icons-material/ExpandLessRounded';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { collapseTarget, type MenuCollapse, type MenuEntry, type MenuGroup, type MenuLink } from '../../menu/menu.js';
import { menuIcons } from '../../menu/menuIcons.js';
import { useAppActions, useAppState } from '../../state/AppStateProvider.js';

interface MenuTreeProps {
  menu: MenuGroup[];
  /** Below lg, choosing an item also closes the drawer. */
  closeOnSelect: boolean;
}

function MenuItemsError() {
  const { t } = useTranslation();
  return (
    <Typography variant="body2" sx={{ color: 'error.main', px: 2, py: 1 }} data-testid="menu-items-error">
      {t('menuItemsError')}
    </Typography>
  );
}

function EntryIcon({ id, nested }: { id: MenuEntry['id']; nested?: boolean }) {
  const Icon = menuIcons[id];
  if (!Icon || nested) return null;
  return (
    <ListItemIcon>
      <Icon fontSize="small" />
    </ListItemIcon>
  );
}

function NavItem({ item, nested, closeOnSelect }: { item: MenuLink; nested?: boolean; closeOnSelect: boolean }) {
  const { t } = useTranslation('shell');
  const { isOpen } = useAppState().customization;
  const { menuOpen, setMenu } = useAppActions();
  const selected = isOpen.includes(item.id);
  const select = () => {
    menuOpen(item.id);
    if (closeOnSelect) setMenu(false);
  };
  const linkProps = item.external
    ? {
        component: 'a' as const,
        href: item.url,
        ...(item.target ? { target: '_blank', rel: 'noopener noreferrer' } : {}),
      }
    : { component: RouterLink, to: item.url };

  return (
    <ListItemButton
      {...linkProps}
      selected={selected}
      disabled={item.disabled}
      onClick={select}
      aria-current={selected ? 'page' : undefined}
      data-testid={`menu-${item.id}`}
      sx={{ mb: 0.25, py: 0.75, pl: nested ? 5.5 : 1.5 }}
    >
      <EntryIcon id={item.id} nested={nested} />
      <ListItemText
        primary={t(`screens.${item.id}`)}
        secondary={item.caption ? t(item.caption) : undefined}
        slotProps={{
          primary: { variant: 'body2', noWrap: true, sx: { fontWeight: selected ? 600 : 500 } },
          secondary: { variant: 'caption' },
        }}
      />
      {item.chip && <Chip label={t(item.chip)} size="small" color="primary" variant="outlined" sx={{ ml: 1 }} />}
      {item.external && <OpenInNewRounded sx={{ fontSize: 14, ml: 1, color: 'text.disabled' }} />}
    </ListItemButton>
  );
}

function NavCollapse({ collapse, closeOnSelect }: { collapse: MenuCollapse; closeOnSelect: boolean }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { isOpen } = useAppState().customization;
  const containsSelected = collapse.children.some((child) => isOpen.includes(child.id));
  const [expanded, setExpanded] = useState(containsSelected);
  const open = expanded || containsSelected;

  const toggle = () => {
    setExpanded(!open);
    const target = collapseTarget(collapse);
    if (target && !open) void navigate(target);
  };

  return (
    <>
      <ListItemButton
        onClick={toggle}
        aria-expanded={open}
        data-testid={`menu-${collapse.id}`}
        sx={{ mb: 0.25, py: 0.75, pl: 1.5, color: containsSelected ? 'primary.main' : undefined }}
      >
        <EntryIcon id={collapse.id} />
        <ListItemText
          primary={t(`groups.${collapse.id}`)}
          slotProps={{ primary: { variant: 'body2', noWrap: true, sx: { fontWeight: containsSelected ? 600 : 500 } } }}
        />
        {open ? <ExpandLessRounded fontSize="small" /> : <ExpandMoreRounded fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List disablePadding>
          {collapse.children.map((child) => (
            <NavItem key={child.id} item={child} nested closeOnSelect={closeOnSelect} />
          ))}
        </List>
      </Collapse>
    </>
  );
}

function NavEntry({ entry, closeOnSelect }: { entry: MenuEntry; closeOnSelect: boolean }) {
  switch (entry.type) {
    case 'item':
      return <NavItem item={entry} closeOnSelect={closeOnSelect} />;
    case 'collapse':
      return <NavCollapse collapse={entry} closeOnSelect={closeOnSelect} />;
    default:
      return <MenuItemsError />;
  }
}

/** The drawer's menu: one titled list per group (spec §2 item kinds). */
export function MenuTree({ menu, closeOnSelect }: MenuTreeProps) {
  const { t } = useTranslation('shell');
  return (
    <>
      {menu.map((group) =>
        group.type === 'group' ? (
          <List
            key={group.id}
            dense
            data-testid={`menu-group-${group.id}`}
            subheader={
              <ListSubheader
                disableSticky
                sx={{
                  bgcolor: 'transparent',
                  lineHeight: 2.5,
                  px: 1.5,
                  typography: 'overline',
                  color: 'text.disabled',
                }}
              >
                {t(`groups.${group.id}`)}
              </ListSubheader>
            }
          >
            {group.children.map((entry) => (
              <NavEntry key={entry.id} entry={entry} closeOnSelect={closeOnSelect} />
            ))}
          </List>
        ) : (
          <MenuItemsError key={String((group as { id?: unknown }).id)} />
        ),
      )}
    </>
  );
}
