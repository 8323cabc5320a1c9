import type { SessionUser } from '../../lib/session.js';
import type { SiteInfoState } from './siteInfo.js';

export type ThemeMode = 'light' | 'dark';

/** The customization state of spec §3. */
export interface CustomizationState {
  /** Ids of the selected menu items (the highlighted one). */
  isOpen: string[];
  defaultId: string;
  /** A CSS font stack; null means "the stack for the current language". */
  fontFamily: string | null;
  borderRadius: number;
  /** Whether the side drawer is open. */
  opened: boolean;
  theme: ThemeMode;
}

export interface AppState {
  customization: CustomizationState;
  siteInfo: SiteInfoState;
  /** The signed-in user, or null. */
  user: SessionUser | null;
}

/** The named actions of spec §3. */
export const actionTypes = {
  setMenu: 'SET_MENU',
  menuOpen: 'MENU_OPEN',
  setFontFamily: 'SET_FONT_FAMILY',
  setBorderRadius: 'SET_BORDER_RADIUS',
  setTheme: 'SET_THEME',
  setSiteInfo: 'SET_SITE_INFO',
  login: 'LOGIN',
  logout: 'LOGOUT',
} as const;

export type AppAction =
  | { type: typeof actionTypes.setMenu; opened: boolean }
  | { type: typeof actionTypes.menuOpen; id: string }
  | { type: typeof actionTypes.setFontFamily; fontFamily: string | null }
  | { type: typeof actionTypes.setBorderRadius; borderRadius: number }
  | { type: typeof actionTypes.setTheme; theme: ThemeMode }
  | { type: typeof actionTypes.setSiteInfo; siteInfo: SiteInfoState }
  | { type: typeof actionTypes.login; user: SessionUser }
  | { type: typeof actionTypes.logout };

export const BORDER_RADIUS = 12;

export function initialCustomization(theme: ThemeMode): CustomizationState {
  return { isOpen: [], defaultId: 'default', fontFamily: null, borderRadius: BORDER_RADIUS, opened: true, theme };
}

/** Pure: side effects (storage, navigation) belong to the action functions in AppStateProvider. */
export function appReducer(state: AppState, action: AppAction): AppState {
  const customization = state.customization;
  switch (action.type) {
    case actionTypes.setMenu:
      return { ...state, customization: { ...customization, opened: action.opened } };
    case actionTypes.menuOpen:
      return { ...state, customization: { ...customization, isOpen: [action.id] } };
    case actionTypes.setFontFamily:
      return { ...state, customization: { ...customization, fontFamily: action.fontFamily } };
    case actionTypes.setBorderRadius:
      return { ...state, customization: { ...customization, borderRadius: action.borderRadius } };
    case actionTypes.setTheme:
      return { ...state, customization: { ...customization, theme: action.theme } };
    case actionTypes.setSiteInfo:
      return { ...state, siteInfo: action.siteInfo };
    case actionTypes.login:
      return { ...state, user: action.user };
    case actionTypes.logout:
      return { ...state, user: null };
  }
}
