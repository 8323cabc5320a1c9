declare global {
  interface Window {
    /** Written into index.html by the server: the path the console is served under, e.g. "/hub/". */
    __ONE_HUB_BASE__?: string;
  }
}

/** The router basename: the server's base path without its trailing slash ("/" stays "/"). */
export function routerBasename(): string {
  const base = window.__ONE_HUB_BASE__ ?? '/';
  return base.replace(/\/+$/, '') || '/';
}
