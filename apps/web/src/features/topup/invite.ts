/**
 * The invite link (reference §4.8): `<server address>/register?aff=<code>`. Without a configured
 * server address, the console's own address (origin plus base path) stands in for it.
 */
export function inviteLink(code: string, serverAddress: string, consoleRegisterUrl: string): string {
  const server = serverAddress.trim().replace(/\/+$/, '');
  const register = server ? `${server}/register` : consoleRegisterUrl;
  return `${register}?aff=${encodeURIComponent(code)}`;
}
