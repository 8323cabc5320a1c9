import { afterAll, beforeAll } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/platform/db/index.js';
import { createTestDatabase, type TestDatabase } from '../databases.js';
import { buildOneHubSource } from './sources/one-hub.js';

export interface ImportPair {
  source: TestDatabase;
  target: TestDatabase;
  /** On the target. */
  handle: DatabaseHandle;
}

/**
 * For the test file that calls it: a One Hub source on SQLite with `extraLogs` more logs, changed by
 * `alter` (to drop what an older release lacked, say), and an empty SQLite target with a handle on
 * it; made before the file's tests, dropped after them.
 */
export function sqliteImportPair(extraLogs: number, alter?: (source: TestDatabase) => void): ImportPair {
  const pair = {} as ImportPair;
  beforeAll(async () => {
    pair.source = await createTestDatabase('sqlite');
    await buildOneHubSource(pair.source, { extraLogs });
    alter?.(pair.source);
    pair.target = await createTestDatabase('sqlite');
    pair.handle = openDatabase(pair.target.target);
  });
  afterAll(async () => {
    await pair.handle?.close();
    await pair.source?.drop();
    await pair.target?.drop();
  });
  return pair;
}
