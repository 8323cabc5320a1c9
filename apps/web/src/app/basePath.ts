declare global {
  interface Window {
    /** Written into index.html by the server: the path the console is served under, e.g. "/hub/". */
    __ONE_HUB_BASE__?: string;
    /** Written into index.html by the server: its version when it served this page. */
    __ONE_HUB_VERSION__?: string;
  }
}

/** The base path the server injected: the script value, else the `<base href>` element, else "/". */
function injectedBasePath(): string {
  if (window.__ONE_HUB_BASE__) return window.__ONE_HUB_BASE__;
  const href = document.querySelector('base')?.getAttribute('href');
  if (!href) return '/';
  try {
    return new URL(href, window.location.origin).pathname;
  } catch {
    return '/';
  }
}

/** The router basename: the base path without its trailing slash ("/" stays "/"). */
export function routerBasename(): string {
  return injectedBasePath().replace(/\/+$/, '') || '/';
}
