import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useReducer, useRef } from 'react';
import { clearStoredUser, onUnauthorized, readStoredUser, type SessionUser, storeUser } from '../../lib/session.js';
import { readText, storageKeys, writeText } from '../../lib/storage.js';
import {
  type AppAction,
  type AppState,
  actionTypes,
  appReducer,
  initialCustomization,
  type ThemeMode,
} from './appState.js';
import { mergeSiteInfo, readStoredSiteInfo, type SiteInfoState } from './siteInfo.js';

export interface AppActions {
  setMenu(opened: boolean): void;
  toggleMenu(): void;
  menuOpen(id: string): void;
  setFontFamily(fontFamily: string | null): void;
  setBorderRadius(borderRadius: number): void;
  /** Applies and saves the theme under `theme`. */
  setTheme(theme: ThemeMode): void;
  toggleTheme(): void;
  setSiteInfo(siteInfo: SiteInfoState): void;
  /** Saves the user under `user` and drops every cached query that belonged to the previous session. */
  login(user: SessionUser): void;
  /** Keeps fresh name, role or avatar of the same session (no cache reset). */
  refreshUser(user: SessionUser): void;
  /** Forgets the user (storage and state) and the session's cached queries. */
  logout(): void;
}

/** MUI's lg breakpoint, where the drawer stops floating over the page. */
const LARGE_SCREEN_QUERY = '(min-width: 1200px)';

const StateContext = createContext<AppState | null>(null);
const ActionsContext = createContext<AppActions | null>(null);

function initialState(): AppState {
  const theme: ThemeMode = readText(storageKeys.theme) === 'dark' ? 'dark' : 'light';
  // The drawer starts open (spec §3) where it sits beside the page; on smaller screens it would cover it.
  const wideScreen = window.matchMedia?.(LARGE_SCREEN_QUERY).matches ?? true;
  return {
    customization: { ...initialCustomization(theme), opened: wideScreen },
    siteInfo: mergeSiteInfo(readStoredSiteInfo(), true),
    user: readStoredUser(),
  };
}

/** Queries under ['site', …] describe the installation; everything else belongs to a session. */
function resetSessionQueries(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'site' });
  void queryClient.invalidateQueries({ queryKey: ['site', 'userGroupMap'] });
}

function createActions(
  dispatch: (action: AppAction) => void,
  getTheme: () => ThemeMode,
  getOpened: () => boolean,
  queryClient: QueryClient,
): AppActions {
  const setTheme = (theme: ThemeMode) => {
    writeText(storageKeys.theme, theme);
    dispatch({ type: actionTypes.setTheme, theme });
  };
  return {
    setMenu: (opened) => dispatch({ type: actionTypes.setMenu, opened }),
    toggleMenu: () => dispatch({ type: actionTypes.setMenu, opened: !getOpened() }),
    menuOpen: (id) => dispatch({ type: actionTypes.menuOpen, id }),
    setFontFamily: (fontFamily) => dispatch({ type: actionTypes.setFontFamily, fontFamily }),
    setBorderRadius: (borderRadius) => dispatch({ type: actionTypes.setBorderRadius, borderRadius }),
    setTheme,
    toggleTheme: () => setTheme(getTheme() === 'light' ? 'dark' : 'light'),
    setSiteInfo: (siteInfo) => dispatch({ type: actionTypes.setSiteInfo, siteInfo }),
    login: (user) => {
      storeUser(user);
      resetSessionQueries(queryClient);
      dispatch({ type: actionTypes.login, user });
    },
    refreshUser: (user) => {
      storeUser(user);
      dispatch({ type: actionTypes.login, user });
    },
    logout: () => {
      clearStoredUser();
      resetSessionQueries(queryClient);
      dispatch({ type: actionTypes.logout });
    },
  };
}

/** Holds the customization, site info and session state; must sit inside QueryClientProvider. */
export function AppStateProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(appReducer, undefined, initialState);

  // Actions read the latest state through a ref so their identity never changes.
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);

  const actions = useMemo(
    () =>
      createActions(
        dispatch,
        () => latest.current.customization.theme,
        () => latest.current.customization.opened,
        queryClient,
      ),
    [queryClient],
  );

  // Any 401 from the API client ends the session (spec §4); RequireAuth then sends the user to /login.
  useEffect(() => onUnauthorized(() => actions.logout()), [actions]);

  return (
    <ActionsContext.Provider value={actions}>
      <StateContext.Provider value={state}>{children}</StateContext.Provider>
    </ActionsContext.Provider>
  );
}

export function useAppState(): AppState {
  const state = useContext(StateContext);
  if (!state) throw new Error('useAppState must be used inside AppStateProvider');
  return state;
}

export function useAppActions(): AppActions {
  const actions = useContext(ActionsContext);
  if (!actions) throw new Error('useAppActions must be used inside AppStateProvider');
  return actions;
}
