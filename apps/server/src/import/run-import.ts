import { type Kysely, sql } from 'kysely';
import type { Database, DatabaseHandle } from '../platform/db/index.js';
import { createSecretBox } from '../platform/secret-box.js';
import type { ProductProfile, SourceDb } from './legacy.js';
import { detectProduct, profiles } from './profiles/index.js';
import { toText } from './profiles/values.js';
import {
  findRun,
  finishRun,
  type ImportRun,
  type RecordedSkip,
  readProgress,
  readSkips,
  recordSkips,
  type StepProgress,
  saveProgress,
  skippedRows,
  startRun,
} from './progress.js';
import {
  accountSteps,
  logStep,
  notCarriedStep,
  type StepInput,
  type StreamStep,
  settingSteps,
  taskSteps,
  type WholeStep,
} from './steps.js';
import { chooseMode, ID_TABLES, ImportRefused } from './target-state.js';
import type { BatchResult, ImportMode, WriteContext } from './writer/context.js';
import { writeStatistics } from './writer/usage.js';

/** Shown on the terminal while the import runs. */
export interface ProgressSink {
  update(step: string, done: number, total: number | undefined): void;
}

export interface ImportOptions {
  /** The configured database, migrated to the current schema. */
  target: DatabaseHandle;
  /** The server secret: keys are sealed under it, as the running server seals them. */
  serverSecret: string;
  source: SourceDb;
  /** Names the source in the progress record (no password): the same source resumes its run. */
  sourceName: string;
  merge: boolean;
  batchSize: number;
  progress?: ProgressSink;
  /** Tests only: called after each committed batch; throwing here simulates an interruption. */
  afterBatch?: (step: string) => void | Promise<void>;
  /** Tests only: called inside each batch's transaction, after its rows and mark; throwing rolls the batch back. */
  insideBatch?: (step: string) => void | Promise<void>;
}

export interface ImportOutcome {
  product: ProductProfile['product'];
  version: string;
  mode: ImportMode;
  /** True when an interrupted run of the same source was continued. */
  resumed: boolean;
  /** True when this source had already been imported completely: nothing was written. */
  alreadyDone: boolean;
  steps: StepProgress[];
  skips: RecordedSkip[];
}

function detect(schema: Map<string, Set<string>>): ProductProfile {
  const profile = detectProduct(schema);
  if (profile) return profile;
  const known = profiles.map((candidate) => candidate.product).join(', ');
  const tables = [...schema.keys()].sort().slice(0, 20).join(', ') || 'none';
  throw new ImportRefused(`the source is not a database this importer knows (${known}); its tables: ${tables}`);
}

async function sourceOptions(source: SourceDb, schema: Map<string, Set<string>>): Promise<Map<string, string>> {
  if (!schema.has('options')) return new Map();
  return new Map((await source.allRows('options')).map((row) => [toText(row.key), toText(row.value)]));
}

class Importer {
  private readonly progress = new Map<string, StepProgress>();

  constructor(
    private readonly options: ImportOptions,
    private readonly context: WriteContext,
    private readonly input: StepInput,
  ) {}

  private db() {
    return this.options.target.db;
  }

  private current(step: string): StepProgress {
    return this.progress.get(step) ?? { step, lastId: 0, done: false, read: 0, written: 0, skipped: 0 };
  }

  async load(): Promise<void> {
    for (const [step, entry] of await readProgress(this.db(), this.context.runId)) this.progress.set(step, entry);
  }

  /** Writes the rows, the skips and the new mark in one transaction: a batch is in, or it is not. */
  private async commit(
    step: string,
    work: (executor: Kysely<Database>) => Promise<BatchResult & { read: number }>,
    next: (before: StepProgress) => Pick<StepProgress, 'lastId' | 'done'>,
  ): Promise<StepProgress> {
    const before = this.current(step);
    const after = await this.db()
      .transaction()
      .execute(async (transaction) => {
        const result = await work(transaction);
        await recordSkips(transaction, this.context.runId, step, result.skipped);
        const updated: StepProgress = {
          step,
          ...next(before),
          read: before.read + result.read,
          written: before.written + result.written,
          skipped: before.skipped + skippedRows(result.skipped),
        };
        await saveProgress(transaction, this.context.runId, updated);
        await this.options.insideBatch?.(step);
        return updated;
      });
    this.progress.set(step, after);
    return after;
  }

  async runWhole(step: WholeStep): Promise<void> {
    if (this.current(step.step).done) return;
    await this.commit(
      step.step,
      (executor) => step.run(executor, this.context, this.input),
      () => ({ lastId: 0, done: true }),
    );
  }

  async runStream(step: StreamStep): Promise<void> {
    if (this.current(step.step).done) return;
    const hasTable = this.input.schema.has(step.table) && (step.applies?.(this.input.profile) ?? true);
    const total = hasTable ? await this.input.source.count?.(step.table) : 0;
    const rollUpStatistics = this.current('statistics').read === 0;
    for (;;) {
      const before = this.current(step.step);
      const rows = hasTable ? await this.input.source.rowsAfter(step.table, before.lastId, this.options.batchSize) : [];
      const lastId = rows.reduce((largest, row) => Math.max(largest, Number(row.id)), before.lastId);
      const finished = rows.length < this.options.batchSize;
      const after = await this.commit(
        step.step,
        async (executor) => ({
          read: rows.length,
          ...(await step.write(executor, this.context, rows, { ...this.input, rollUpStatistics })),
        }),
        () => ({ lastId, done: finished }),
      );
      this.options.progress?.update(step.step, after.read, total);
      if (finished) return;
      await this.options.afterBatch?.(step.step);
    }
  }

  /** Statistics have no id: sorted by their key, the mark counts the rows done. */
  async runStatistics(): Promise<void> {
    if (this.current('statistics').done) return;
    const key = (row: { date: string; user_id: number; channel_id: number; model_name: string }) =>
      `${row.date}\u0000${String(row.user_id).padStart(12, '0')}\u0000${String(row.channel_id).padStart(12, '0')}\u0000${row.model_name}`;
    const rows = (await this.input.profile.statistics(this.input.source)).sort((left, right) =>
      key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0,
    );
    for (;;) {
      const offset = this.current('statistics').lastId;
      const slice = rows.slice(offset, offset + this.options.batchSize);
      const finished = offset + slice.length >= rows.length;
      const after = await this.commit(
        'statistics',
        async (executor) => ({ read: slice.length, ...(await writeStatistics(executor, this.context, slice)) }),
        () => ({ lastId: offset + slice.length, done: finished }),
      );
      this.options.progress?.update('statistics', after.read, rows.length);
      if (finished) return;
      await this.options.afterBatch?.('statistics');
    }
  }

  async runAll(): Promise<void> {
    for (const step of settingSteps) await this.runWhole(step);
    for (const step of accountSteps) {
      if (step.mergeOnly && this.context.mode !== 'merge') continue;
      await this.runStream(step);
    }
    await this.runStatistics();
    await this.runStream(logStep);
    for (const step of taskSteps) await this.runStream(step);
    await this.runWhole(notCarriedStep);
  }

  steps(): StepProgress[] {
    return [...this.progress.values()];
  }
}

/**
 * PostgreSQL does not move a serial's sequence when rows are inserted with their ids: without
 * this the server's next new user would collide with an imported one. (SQLite and MySQL move on.)
 */
async function moveSequences(target: DatabaseHandle): Promise<void> {
  if (target.dialect !== 'postgres') return;
  for (const table of ID_TABLES) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
      target.db,
    );
  }
}

async function openRun(options: ImportOptions, profile: ProductProfile): Promise<{ run: ImportRun; resumed: boolean }> {
  const existing = await findRun(options.target.db, options.sourceName);
  if (existing) return { run: existing, resumed: existing.finishedAt === 0 };
  const mode = await chooseMode(options.target, options.merge);
  return { run: await startRun(options.target.db, options.sourceName, profile.product, mode), resumed: false };
}

export async function runImport(options: ImportOptions): Promise<ImportOutcome> {
  const schema = await options.source.schema();
  const profile = detect(schema);
  const { run, resumed } = await openRun(options, profile);
  const context: WriteContext = {
    dialect: options.target.dialect,
    mode: run.mode,
    runId: run.id,
    secrets: {
      tokens: createSecretBox(options.serverSecret, 'tokens'),
      channels: createSecretBox(options.serverSecret, 'channels'),
      redemptions: createSecretBox(options.serverSecret, 'redemptions'),
      payments: createSecretBox(options.serverSecret, 'payments'),
    },
  };
  const input: StepInput = {
    profile,
    source: options.source,
    schema,
    options: await sourceOptions(options.source, schema),
  };
  const importer = new Importer(options, context, input);
  await importer.load();
  const alreadyDone = run.finishedAt > 0;
  if (!alreadyDone) {
    await importer.runAll();
    await moveSequences(options.target);
    await finishRun(options.target.db, run.id);
  }
  return {
    product: profile.product,
    version: profile.version(schema),
    mode: run.mode,
    resumed,
    alreadyDone,
    steps: importer.steps(),
    skips: await readSkips(options.target.db, run.id),
  };
}
