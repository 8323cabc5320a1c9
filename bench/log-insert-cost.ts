// What one log row costs to write with its roll-ups, in a loop of the log writer's 200-row
// transactions (120,000 rows a run), on a fresh database of each dialect:
//   source /work/dbenv.sh && nice -n 10 node --import tsx bench/log-insert-cost.ts --dialects sqlite
// Two ways of writing each batch, alternated run by run so a busy machine weighs on both alike:
// "0027" adds the batch to `statistics` and its three sums only (the writer before migration
// 0028); "0028" adds it to the token days and hour totals too (addLogsToRollUps, the writer now).
// Two data shapes: constant (one user, key and model, as the relay bench's), and spread (50 users,
// two keys and four models each, 1,000 quota values, a second a row).
import { LogType } from '@one-hub/contracts';
import { addLogsToRollUps, addToStatistics, consumeTotalsByDay } from '../apps/server/src/api/statistics/rollup.js';
import {
  type DatabaseHandle,
  type DialectName,
  migrateToLatest,
  type NewLogRow,
  openDatabase,
} from '../apps/server/src/platform/db/index.js';
import { availableDialects, createTestDatabase } from '../apps/server/test/databases.js';
import { logRow } from '../apps/server/test/log-rows.js';

const BATCH = 200;
const ROUNDS = 3;
const batchesFlag = process.argv.indexOf('--batches');
/** 600 transactions of 200 rows a run unless `--batches` says otherwise. */
const BATCHES = batchesFlag >= 0 ? Number(process.argv[batchesFlag + 1]) : 600;
type Shape = 'constant' | 'spread';
type Writer = '0027' | '0028';

function batchOf(shape: Shape, first: number, start: number): NewLogRow[] {
  return Array.from({ length: BATCH }, (_, offset) => {
    const index = first + offset;
    const user = shape === 'constant' ? 0 : (index * 7) % 50;
    return logRow({
      user_id: user + 1,
      username: `user${user + 1}`,
      type: LogType.consume,
      token_name: shape === 'constant' ? 'key' : `user${user + 1}-key${index % 2}`,
      model_name: shape === 'constant' ? 'model' : `model-${(index * 3) % 4}`,
      channel_id: 1 + (shape === 'constant' ? 0 : index % 3),
      quota: shape === 'constant' ? 100 : (index * 37) % 1_000,
      prompt_tokens: 100,
      completion_tokens: 50,
      request_time: 300,
      created_at: start + index,
    });
  });
}

/** Microseconds per row of BATCHES transactions, each a 200-row insert and its roll-ups. */
async function run(handle: DatabaseHandle, shape: Shape, writer: Writer, start: number): Promise<number> {
  const began = process.hrtime.bigint();
  for (let batch = 0; batch < BATCHES; batch++) {
    const rows = batchOf(shape, batch * BATCH, start);
    await handle.db.transaction().execute(async (transaction) => {
      await transaction.insertInto('logs').values(rows).execute();
      if (writer === '0028') await addLogsToRollUps(transaction, handle.dialect, rows);
      else await addToStatistics(transaction, handle.dialect, consumeTotalsByDay(rows));
    });
  }
  return Number(process.hrtime.bigint() - began) / 1e3 / (BATCH * BATCHES);
}

async function measure(dialect: DialectName, shape: Shape): Promise<Record<Writer, number[]>> {
  const times: Record<Writer, number[]> = { '0027': [], '0028': [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order: Writer[] = round % 2 === 0 ? ['0027', '0028'] : ['0028', '0027'];
    for (const writer of order) {
      // A fresh database each run, so every run starts from the same empty tables.
      const database = await createTestDatabase(dialect);
      const handle = openDatabase(database.target);
      try {
        await migrateToLatest(handle);
        times[writer].push(await run(handle, shape, writer, 1_700_000_000));
      } finally {
        await handle.close();
        await database.drop();
      }
    }
  }
  return times;
}

const flag = process.argv.indexOf('--dialects');
const dialects = (flag >= 0 ? (process.argv[flag + 1] ?? '').split(',') : availableDialects) as DialectName[];
console.log(`| Dialect | Data | 0027 (µs/row) | 0028 (µs/row) |\n|---|---|---:|---:|`);
for (const dialect of dialects) {
  for (const shape of ['constant', 'spread'] as const) {
    const times = await measure(dialect, shape);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const cells = (['0027', '0028'] as const).map((writer) => median(times[writer]).toFixed(1));
    console.log(`| ${dialect} | ${shape} | ${cells.join(' | ')} |`);
  }
}
