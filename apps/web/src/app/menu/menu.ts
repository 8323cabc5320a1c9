import { isAdminRole, isRootRole } from '@one-hub/contracts';
import type shellCatalogue from '../../i18n/locales/zh_CN/shell.json';

/** A screen with a title under `shell:screens.<id>`. */
export type ScreenId = keyof (typeof shellCatalogue)['screens'];
/** A group or collapse with a title under `shell:groups.<id>`. */
export type GroupId = keyof (typeof shellCatalogue)['groups'];

/** A link in the drawer: plain, external (new tab when `target`), disabled, or with chip and caption. */
export interface MenuLink {
  type: 'item';
  id: ScreenId;
  url: string;
  admin?: boolean;
  /** Only the super administrator (root) may open it: other admins would meet a 403. */
  root?: boolean;
  external?: boolean;
  /** With `external`, opens the link in a new tab. */
  target?: boolean;
  disabled?: boolean;
  /** i18n key of a small chip after the title. */
  chip?: string;
  /** i18n key of a second line under the title. */
  caption?: string;
  /** A screen of wide tables: on large screens it takes the whole width instead of the centred column. */
  wide?: boolean;
  /** Shown only while the site offers this feature (`/api/status`): invoices with UserInvoiceMonth. */
  requires?: SiteFeature;
}

/** Features the site turns on or off in its settings; their menu entries follow. */
export type SiteFeature = 'invoice';

/** A collapsible sub-list; clicking it opens it and goes to its first visible child. */
export interface MenuCollapse {
  type: 'collapse';
  id: GroupId;
  admin?: boolean;
  children: MenuLink[];
}

export interface MenuGroup {
  type: 'group';
  id: GroupId;
  children: Array<MenuLink | MenuCollapse>;
}

export type MenuEntry = MenuLink | MenuCollapse;

const link = (id: ScreenId, extra: Partial<MenuLink> = {}): MenuLink => ({
  type: 'item',
  id,
  url: `/panel/${id}`,
  ...extra,
});
const admin = { admin: true } as const;
const root = { admin: true, root: true } as const;
const wide = { wide: true } as const;

/**
 * The console menu (spec §2, §6), with tokens and profile moved from the spec's Setting group to an
 * Account group and the administrators' group last. "Menu changes need a reload": it is static,
 * filtered once per role by visibleMenu. Icons live in menuIcons.tsx, titles in the shell namespace.
 */
export const consoleMenu: MenuGroup[] = [
  {
    type: 'group',
    id: 'dashboard',
    children: [link('dashboard'), link('analytics', admin), link('system_info', root), link('playground')],
  },
  // A user looks for their keys and profile under their account, not under the site's settings.
  {
    type: 'group',
    id: 'account',
    children: [link('token'), link('profile')],
  },
  {
    type: 'group',
    id: 'billing',
    children: [link('topup'), link('invoice', { requires: 'invoice' }), link('model_price')],
  },
  {
    type: 'group',
    id: 'usage',
    children: [link('log', wide), link('audit', { ...admin, ...wide }), link('midjourney', wide), link('task', wide)],
  },
  {
    type: 'group',
    id: 'setting',
    children: [
      link('user', admin),
      link('channel', { ...admin, ...wide }),
      {
        type: 'collapse',
        id: 'operation',
        admin: true,
        children: [link('user_group'), link('pricing'), link('telegram')],
      },
      {
        type: 'collapse',
        id: 'paySetting',
        admin: true,
        children: [link('redemption'), link('payment'), link('plan')],
      },
      // The server answers 403 to every settings call of an admin below root.
      link('setting', root),
    ],
  },
];

/** Who is looking at the menu: a common user, an administrator, or the super administrator. */
export type Clearance = 'user' | 'admin' | 'root';

/** A role's clearance (spec §6: 10 and up is an admin; root is the super administrator). */
export function clearanceOf(role: number | undefined | null): Clearance {
  if (isRootRole(role)) return 'root';
  return isAdminRole(role) ? 'admin' : 'user';
}

function cleared(entry: { admin?: boolean; root?: boolean }, clearance: Clearance): boolean {
  if (entry.root) return clearance === 'root';
  return !entry.admin || clearance !== 'user';
}

/**
 * The menu a user sees: admin entries dropped for common users, root entries for everyone but
 * root, entries of features the site has off dropped, empty collapses and groups hidden.
 */
export function visibleMenu(
  menu: MenuGroup[],
  clearance: Clearance,
  features: ReadonlySet<SiteFeature> = new Set(),
): MenuGroup[] {
  const allowed = (entry: { admin?: boolean; root?: boolean; requires?: SiteFeature }) =>
    cleared(entry, clearance) && (!entry.requires || features.has(entry.requires));
  const groups: MenuGroup[] = [];
  for (const group of menu) {
    const children: MenuEntry[] = [];
    for (const entry of group.children) {
      if (!allowed(entry)) continue;
      if (entry.type === 'collapse') {
        const links = entry.children.filter(allowed);
        if (links.length > 0) children.push({ ...entry, children: links });
      } else {
        children.push(entry);
      }
    }
    if (children.length > 0) groups.push({ ...group, children });
  }
  return groups;
}

/** Where a path sits in the menu: its group, the collapse around it (if any) and the link. */
export interface MenuTrail {
  group: MenuGroup;
  collapse?: MenuCollapse;
  link: MenuLink;
}

function matches(pathname: string, url: string): boolean {
  return pathname === url || pathname.startsWith(`${url}/`);
}

export function findMenuTrail(menu: MenuGroup[], pathname: string): MenuTrail | null {
  const path = pathname.replace(/\/+$/, '') === '/panel' ? '/panel/dashboard' : pathname;
  for (const group of menu) {
    for (const entry of group.children) {
      if (entry.type === 'collapse') {
        const child = entry.children.find((candidate) => matches(path, candidate.url));
        if (child) return { group, collapse: entry, link: child };
      } else if (!entry.external && matches(path, entry.url)) {
        return { group, link: entry };
      }
    }
  }
  return null;
}

/** A collapsible group navigates to its first child, except the "authentication" group (spec §2). */
export function collapseTarget(collapse: { id: string; children: MenuLink[] }): string | null {
  if (collapse.id === 'authentication') return null;
  return collapse.children.find((child) => !child.disabled)?.url ?? null;
}
