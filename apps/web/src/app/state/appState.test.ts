import { describe, expect, it } from 'vitest';
import { type AppState, actionTypes, appReducer, initialCustomization } from './appState.js';
import { defaultSiteInfo, mergeSiteInfo } from './siteInfo.js';

const start: AppState = { customization: initialCustomization('light'), siteInfo: defaultSiteInfo, user: null };

describe('app state (spec §3)', () => {
  it('starts with the spec defaults', () => {
    expect(start.customization).toEqual({
      isOpen: [],
      defaultId: 'default',
      fontFamily: null,
      borderRadius: 12,
      opened: true,
      theme: 'light',
    });
    expect(defaultSiteInfo).toMatchObject({
      system_name: 'One Hub',
      quota_per_unit: 500000,
      display_in_currency: true,
      language: 'zh_CN',
      start_time: 0,
      isLoading: true,
    });
  });

  it('applies each named action', () => {
    let state = appReducer(start, { type: actionTypes.setMenu, opened: false });
    state = appReducer(state, { type: actionTypes.menuOpen, id: 'token' });
    state = appReducer(state, { type: actionTypes.setFontFamily, fontFamily: 'serif' });
    state = appReducer(state, { type: actionTypes.setBorderRadius, borderRadius: 8 });
    state = appReducer(state, { type: actionTypes.setTheme, theme: 'dark' });
    expect(state.customization).toEqual({
      isOpen: ['token'],
      defaultId: 'default',
      fontFamily: 'serif',
      borderRadius: 8,
      opened: false,
      theme: 'dark',
    });

    state = appReducer(state, {
      type: actionTypes.setSiteInfo,
      siteInfo: mergeSiteInfo({ system_name: 'Hub' }, false),
    });
    expect([state.siteInfo.system_name, state.siteInfo.isLoading, state.siteInfo.quota_per_unit]).toEqual([
      'Hub',
      false,
      500000,
    ]);

    state = appReducer(state, { type: actionTypes.login, user: { id: 1, username: 'root', role: 100 } });
    expect(state.user?.username).toBe('root');
    expect(appReducer(state, { type: actionTypes.logout }).user).toBeNull();
  });
});
