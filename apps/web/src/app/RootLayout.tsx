import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { NoticeProvider } from '../features/notice/NoticeProvider.js';
import { storageKeys, writeText } from '../lib/storage.js';

/** Wraps every page: scrolls to the top on each route change, keeps `?aff=` and hosts the notice viewer. */
export function RootLayout() {
  const { pathname, search } = useLocation();

  useEffect(() => {
    // Runs on every path change; the path is what matters, not its value.
    void pathname;
    window.scrollTo(0, 0);
  }, [pathname]);

  useEffect(() => {
    const referral = new URLSearchParams(search).get('aff');
    if (referral) writeText(storageKeys.aff, referral);
  }, [search]);

  return (
    <NoticeProvider>
      <Outlet />
    </NoticeProvider>
  );
}
