// `npm run backup [-- --to FILE]`: a consistent copy of the SQLite database, taken while the server
// runs, plus the session secret beside it. It uses SQLite's online backup (through better-sqlite3),
// which reads the database and its write-ahead log as one snapshot; copying `one-hub.db` by hand
// while the server runs misses what is still in `one-hub.db-wal`, or catches a page half-written.
// Reads the same environment as `npm start`: SQLITE_PATH (default ./data/one-hub.db), SQL_DSN and
// SESSION_SECRET. Needs no build.
import { chmodSync, copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCommandLine } from './command-line.mjs';
import { COMMANDS } from './commands.mjs';

const { options: OPTIONS, usage: USAGE } = COMMANDS.backup;

/** A problem the operator fixes: one line on standard error, no stack. */
class BackupError extends Error {
  constructor(message, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** `2026-03-01T10-20-30Z`: sorts by time and is a valid file name everywhere. */
const stamp = (date) =>
  date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');

function destinationOf(to, dataDir, now) {
  if (to !== undefined && to.trim() === '') throw new BackupError(`--to needs a file name\n\n${USAGE}`, 2);
  const file = resolve(to ?? join(dataDir, 'backups', `one-hub-${stamp(now)}.db`));
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose another --to (nothing was written)`);
  return file;
}

export async function backup({ to, env = process.env, now = new Date(), print = console.log } = {}) {
  if (env.SQL_DSN?.trim()) {
    throw new BackupError(
      'SQL_DSN is set, so the data is in PostgreSQL or MySQL, not SQLite: back it up with pg_dump or mysqldump (see docs/operations.md, "Backups")',
      2,
    );
  }
  const sqlitePath = resolve(env.SQLITE_PATH?.trim() || './data/one-hub.db');
  if (!existsSync(sqlitePath)) {
    throw new BackupError(
      `SQLITE_PATH: no database at ${sqlitePath} (run this where you run npm start, with the same SQLITE_PATH)`,
    );
  }
  const dataDir = dirname(sqlitePath);
  const file = destinationOf(to, dataDir, now);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });

  // better-sqlite3 is the server's dependency; resolve it from there so this works in any layout.
  const Database = createRequire(new URL('../apps/server/package.json', import.meta.url))('better-sqlite3');
  const source = new Database(sqlitePath, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    await source.backup(file);
  } finally {
    source.close();
  }
  chmodSync(file, 0o600);
  // The copy is one self-contained file: no -wal beside it to forget. The server switches a
  // restored copy back to WAL when it opens it.
  const copy = new Database(file);
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`the copy at ${file} failed SQLite's check: ${check}`);
  } finally {
    copy.close();
  }
  print(`Database copied to ${file} (${statSync(file).size} bytes)`);

  const secret = join(dataDir, 'session-secret');
  if (env.SESSION_SECRET?.trim()) {
    print('SESSION_SECRET is set: keep its value with this copy; without it the copy cannot open its keys.');
  } else if (existsSync(secret)) {
    copyFileSync(secret, `${file}.session-secret`);
    chmodSync(`${file}.session-secret`, 0o600);
    print(`Session secret copied to ${file}.session-secret (restore it as ${secret})`);
  } else {
    print(`No session secret found at ${secret}; a copy without it cannot open its keys.`);
  }
  return file;
}

const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const commandLine = readCommandLine(process.argv.slice(2), OPTIONS, USAGE);
  if (commandLine.exitCode !== undefined) process.exit(commandLine.exitCode);
  try {
    await backup({ to: commandLine.values.to });
  } catch (error) {
    process.stderr.write(`One Hub backup failed: ${error.message}\n`);
    process.exit(error instanceof BackupError ? error.exitCode : 1);
  }
}
