// The importer's memory with a large log table: builds a One Hub SQLite source with N log rows
// (IMPORT_LOG_ROWS, default 1,000,000), imports it with the built importer (dist/import.js, as
// `npm run import` runs it) into a fresh SQLite file, and prints the importer's peak RSS. Not part
// of `npm run bench`: building and importing a million rows takes a few minutes.
//   npm run build -w apps/server && IMPORT_LOG_ROWS=200000 node --import tsx bench/import-memory.ts
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { buildOneHubSource } from '../apps/server/test/import/sources/one-hub.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const importer = join(root, 'apps/server/dist/import.js');
const rows = Number(process.env.IMPORT_LOG_ROWS ?? 1_000_000);
const MAX_ROWS = 20_000_000;

if (!Number.isSafeInteger(rows) || rows < 1 || rows > MAX_ROWS) {
  throw new Error(`IMPORT_LOG_ROWS must be a whole number from 1 to ${MAX_ROWS}`);
}
if (!existsSync(importer)) throw new Error('no build: run `npm run build -w apps/server` first');

/** Appends `count` consume logs in one transaction, through one prepared statement. */
function appendLogs(path: string, count: number): void {
  const database = new BetterSqlite3(path);
  const insert = database.prepare(
    `insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota,
       prompt_tokens, completion_tokens, channel_id, request_time, is_stream, source_ip, metadata)
     values (2, ?, 2, '', 'alice', 'one hub key', 'gpt-4o-mini', ?, 120, 340, 1, 850, ?, '198.51.100.1', '{"cached_tokens":0}')`,
  );
  const start = Math.floor(Date.now() / 1000) - 90 * 86_400;
  database.transaction(() => {
    for (let index = 0; index < count; index++)
      insert.run(start + Math.floor(index / 20), 100 + (index % 900), index % 2);
  })();
  database.close();
}

/** Peak resident memory of the child, from /proc (VmHWM is the high-water mark, so polling cannot miss it). */
function peakRssKb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

async function runImporter(
  sourcePath: string,
  targetPath: string,
): Promise<{ code: number; peakKb: number; seconds: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [importer, '--from', sourcePath], {
    env: { ...process.env, SQLITE_PATH: targetPath, SQL_DSN: '', SESSION_SECRET: 'bench-import-secret-0123456789' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let peakKb = 0;
  const poll = setInterval(() => {
    if (child.pid) peakKb = Math.max(peakKb, peakRssKb(child.pid));
  }, 50);
  const code = await new Promise<number>((resolve) => child.on('exit', (exitCode) => resolve(exitCode ?? 1)));
  clearInterval(poll);
  return { code, peakKb, seconds: (Date.now() - started) / 1000 };
}

const directory = mkdtempSync(join(tmpdir(), 'one-hub-import-bench-'));
try {
  const sourcePath = join(directory, 'one-hub.db');
  console.log(`Building a One Hub source with ${rows.toLocaleString('en')} log rows...`);
  await buildOneHubSource({ dialect: 'sqlite', target: { sqlitePath: sourcePath }, drop: async () => undefined });
  appendLogs(sourcePath, rows);
  console.log('Importing it into a fresh SQLite database (progress below)...');
  const result = await runImporter(sourcePath, join(directory, 'target', 'one-hub.db'));
  if (result.code !== 0) throw new Error(`the importer exited with ${result.code}`);
  console.log(
    `Imported ${rows.toLocaleString('en')} log rows in ${result.seconds.toFixed(1)} s; importer peak RSS ${(result.peakKb / 1024).toFixed(1)} MB`,
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
