/**
 * The layer rules of DESIGN.md and docs/architecture.md, checked by `npm run lint` (`npm run layers`).
 * Import circles are madge's (`npm run cycles`). Each rule names the direction it forbids; the
 * comments say why the direction matters.
 */
const server = '^apps/server/src/';
const tests = '\\.test\\.tsx?$';

module.exports = {
  forbidden: [
    {
      name: 'resolvable',
      comment: 'Every relative import resolves to a file: a rule cannot hold over imports it cannot see.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^(node:|[a-z@])' },
    },
    {
      name: 'api-not-relay',
      comment:
        'The management API never imports the relay: what both halves use lives in domain/ or platform/, ' +
        'so either half can change without the other.',
      severity: 'error',
      from: { path: `${server}api/` },
      to: { path: `${server}relay/` },
    },
    {
      name: 'relay-reaches-api-through-the-composition-root',
      comment:
        'The relay gets repositories and services from services.ts (the composition root) and imports only ' +
        'their types; it builds none of them and calls no other module of the management API. Tests build ' +
        'their own pieces.',
      severity: 'error',
      from: { path: `${server}relay/`, pathNot: tests },
      to: { path: `${server}api/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'relay-types-only-of-repositories-and-services',
      comment: 'Of the management API, the relay may name repositories and services, nothing else.',
      severity: 'error',
      from: { path: `${server}relay/`, pathNot: tests },
      to: { path: `${server}api/`, pathNot: `${server}api/[^/]+/(repo|service)\\.ts$` },
    },
    {
      name: 'relay-not-jobs',
      comment:
        'Background jobs run relay code (the task poll pass), never the other way: the poller interface ' +
        'lives beside the tasks (relay/tasks/types.ts), so the relay serves requests without the job runner.',
      severity: 'error',
      from: { path: `${server}relay/`, pathNot: tests },
      to: { path: `${server}jobs/` },
    },
    {
      name: 'domain-stands-alone',
      comment:
        'domain/ is what the API and the relay share; it depends only on platform/ and the contracts, ' +
        'or it would tie the halves together again.',
      severity: 'error',
      from: { path: `${server}domain/` },
      to: { path: server, pathNot: [`${server}(domain|platform)/`] },
    },
    {
      name: 'platform-stands-alone',
      comment: 'platform/ (database, cache, logger, crypto, HTTP bodies) knows nothing of the product built on it.',
      severity: 'error',
      from: { path: `${server}platform/`, pathNot: tests },
      to: { path: server, pathNot: `${server}platform/` },
    },
    {
      name: 'providers-not-exchange-internals',
      comment:
        'Adapters are pure translations: of the exchange they see only its interface (exchange/types.ts), never ' +
        'how it calls, retries or bills. Their tests may drive them through the exchange.',
      severity: 'error',
      from: { path: `${server}relay/providers/`, pathNot: tests },
      to: { path: `${server}relay/exchange/`, pathNot: `${server}relay/exchange/types\\.ts$` },
    },
    {
      name: 'console-feature-not-another-feature',
      comment:
        "A console feature never imports another feature's files: what two screens share lives in " +
        'components/, hooks/ or lib/, so a screen can be reshaped without breaking its neighbours.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'console-imports-only-contracts',
      comment: 'The console shares code with the server only through packages/contracts.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^(apps/server|bench|e2e)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
