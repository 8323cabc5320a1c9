export const strings = {
  app: {
    defaultName: 'One Hub',
    loading: 'Loading…',
    serverUnreachable: 'Unable to connect to the server correctly!',
    networkError: 'Network error: the server could not be reached.',
    unexpectedResponse: 'The server sent an unexpected response.',
    retry: 'Retry',
  },
  theme: {
    switchToDark: 'Switch to dark mode',
    switchToLight: 'Switch to light mode',
  },
  login: {
    title: 'Sign in',
    subtitle: 'Sign in to your account to continue',
    username: 'Username or email',
    password: 'Password',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    submit: 'Sign in',
    success: 'Signed in successfully',
    passwordLoginDisabled: 'Password sign-in has been disabled by the administrator.',
  },
  panel: {
    signOut: 'Sign out',
    signedOut: 'You have been signed out',
    loadUserFailed: 'Unable to load your account.',
  },
  dashboard: {
    welcome: 'Welcome back, {{name}}',
    overview: 'Here is an overview of your account.',
    account: 'Account',
    role: 'Role',
    group: 'Group',
    balance: 'Balance',
    usedQuota: 'Used quota',
    requestCount: 'Requests',
    requestCountHint: 'Total API requests',
    balanceHint: 'Remaining quota',
    usedQuotaHint: 'Quota consumed so far',
    groupHint: 'Pricing group',
    roleHint: 'Permission level',
  },
  roles: {
    root: 'Root',
    admin: 'Administrator',
    common: 'Common user',
    unknown: 'Unknown',
  },
  notFound: {
    code: '404',
    title: 'Page not found',
    description: 'The page you are looking for does not exist or has been moved.',
    backHome: 'Back to home',
  },
  routeError: {
    title: 'Something went wrong',
    description: 'An unexpected error occurred while showing this page.',
    reload: 'Reload page',
  },
} as const;

/** Fills `{{name}}` placeholders, the syntax i18next uses, so the strings can move there unchanged. */
export function fillPlaceholders(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) =>
    key in values ? String(values[key]) : match,
  );
}
