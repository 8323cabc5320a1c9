// The options and usage of every `npm run` tool, in one place that both halves read: the
// scripts/*.mjs wrappers check the command line before they build anything (so `--help` or a typo
// never starts a build, let alone the work), and the built tools check it again when run directly
// (`node apps/server/dist/reset-root-password.js`, as in Docker). Read with command-line.mjs.

export const COMMANDS = {
  start: {
    options: {},
    usage: `Usage: npm start

Builds the server and the console when the build is missing or stale, then serves both on one port.
Every setting comes from the environment (PORT, SQL_DSN, REDIS_CONN_STRING…: docs/configuration.md);
npm start takes no options.

  -h, --help  print this and exit
`,
  },
  'reset-root-password': {
    options: { username: { type: 'string' } },
    usage: `Usage: npm run reset-root-password [-- --username NAME]

Sets a new password for the root account of the database this server is configured with (SQL_DSN,
or SQLITE_PATH; the same environment as the server), prints it once, and ends every session of
that account. Works whether the server is running or not.

  --username NAME  the root account to reset, when there is more than one
  -h, --help       print this and exit
`,
  },
  import: {
    options: { from: { type: 'string' }, merge: { type: 'boolean' }, batch: { type: 'string' } },
    usage: `Usage: npm run import -- --from <source> [--merge] [--batch N]

Imports a One Hub, one-api or new-api database into the database this server is configured with
(SQL_DSN, or SQLITE_PATH; the same environment as the server). The source is only read.

  --from <source>  a SQLite file (path or sqlite:path), postgres://user:pass@host/db or mysql://user:pass@host/db
  --merge          add to a target that already has users (see docs/migration.md)
  --batch N        rows per batch and transaction (default 1000, 1-10000)
  -h, --help       print this and exit
`,
  },
  backup: {
    options: { to: { type: 'string' } },
    usage: `Usage: npm run backup [-- --to FILE]

Copies the SQLite database (SQLITE_PATH, default ./data/one-hub.db) consistently while the server
runs, with the session secret beside it. With SQL_DSN set, use pg_dump or mysqldump instead.

  --to FILE   where to write the copy (default data/backups/one-hub-<time>.db); must not exist
  -h, --help  print this and exit
`,
  },
};
