/** The header's page links; `signedIn` links show only to a signed-in visitor (spec §2). */
export const publicLinks = [
  { id: 'home', to: '/', signedIn: false },
  { id: 'playground', to: '/playground', signedIn: true },
  { id: 'about', to: '/about', signedIn: false },
] as const;

export function isActiveLink(pathname: string, to: string): boolean {
  return to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
}
