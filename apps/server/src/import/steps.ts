import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/index.js';
import type { ProductProfile, Skipped, SourceDb, SourceRow } from './legacy.js';
import { writeChannels } from './writer/channels.js';
import type { BatchResult, WriteContext } from './writer/context.js';
import { writeOrders, writePayments } from './writer/payments.js';
import { writeRedemptions } from './writer/redemptions.js';
import { writeModelInfo, writeModelOwners, writeOptions, writePrices, writeUserGroups } from './writer/settings.js';
import { writeMidjourneys, writeTasks, writeTelegramMenus } from './writer/tasks.js';
import { writeTokens } from './writer/tokens.js';
import { writeLogs } from './writer/usage.js';
import { writeInviters, writeUsers } from './writer/users.js';

/** What every step may read: the source, its product profile and its options (key → value). */
export interface StepInput {
  profile: ProductProfile;
  source: SourceDb;
  schema: Map<string, Set<string>>;
  options: Map<string, string>;
}

/** A small table: read whole, written in one transaction. */
export interface WholeStep {
  kind: 'whole';
  step: string;
  /** Rows read and what the profile already left out. */
  run(executor: Kysely<Database>, context: WriteContext, input: StepInput): Promise<BatchResult & { read: number }>;
}

/** A table read in id order, a batch at a time, each batch in its own transaction with its mark. */
export interface StreamStep {
  kind: 'stream';
  step: string;
  table: string;
  mergeOnly?: boolean;
  /** False when the profile has no reader for this table (it reports the table as not carried instead). */
  applies?(profile: ProductProfile): boolean;
  write(executor: Kysely<Database>, context: WriteContext, rows: SourceRow[], input: StreamInput): Promise<BatchResult>;
}

function whole<Row>(
  step: string,
  load: (input: StepInput) => Promise<Row[]> | Row[],
  write: (executor: Kysely<Database>, context: WriteContext, rows: Row[]) => Promise<BatchResult>,
): WholeStep {
  return {
    kind: 'whole',
    step,
    async run(executor, context, input) {
      const rows = await load(input);
      return { read: rows.length, ...(await write(executor, context, rows)) };
    },
  };
}

/** The source's options as the profile translates them; what it left out is reported with the rest. */
const optionsStep: WholeStep = {
  kind: 'whole',
  step: 'options',
  async run(executor, context, input) {
    const translated = input.profile.options(input.options);
    const result = await writeOptions(executor, context, translated.options);
    return { read: input.options.size, written: result.written, skipped: [...translated.skipped, ...result.skipped] };
  },
};

const notCarriedStep: WholeStep = {
  kind: 'whole',
  step: 'not_carried',
  async run(_executor, _context, input) {
    const skipped: Skipped[] = [];
    for (const entry of input.profile.notCarried(input.schema)) {
      skipped.push({ ...entry, count: (await input.source.count?.(entry.table)) ?? 0 });
    }
    return { read: 0, written: 0, skipped };
  },
};

type StreamInput = StepInput & { rollUpStatistics: boolean };

/**
 * A streamed table: the profile translates each batch; rows it could not read are reported, and
 * so is what `notes` says changed on the way (e.g. a channel type kept disabled).
 */
function stream<Row>(
  step: string,
  table: string,
  translate: (profile: ProductProfile, rows: SourceRow[]) => Row[],
  write: (executor: Kysely<Database>, context: WriteContext, rows: Row[], input: StreamInput) => Promise<BatchResult>,
  mergeOnly = false,
  notes: (profile: ProductProfile, rows: SourceRow[]) => Skipped[] = () => [],
): StreamStep {
  return {
    kind: 'stream',
    step,
    table,
    mergeOnly,
    async write(executor, context, rows, input) {
      const translated = translate(input.profile, rows);
      const result = await write(executor, context, translated, input);
      const dropped = rows.length - translated.length;
      if (dropped > 0)
        result.skipped.push({
          table,
          reason: 'left out by the source profile: unreadable, or deleted in the source',
          count: dropped,
        });
      result.skipped.push(...notes(input.profile, rows));
      return result;
    },
  };
}

/**
 * The order matters: users before everything that names a user, channels before the rows that
 * name a channel; settings first, so the groups users belong to exist. Daily statistics are
 * written between redemptions and logs by the orchestrator (in slices, see run-import.ts).
 */
export const settingSteps: readonly WholeStep[] = [
  optionsStep,
  whole('user_groups', (input) => input.profile.userGroups(input.source, input.options), writeUserGroups),
  whole('model_owned_by', (input) => input.profile.modelOwners(input.source), writeModelOwners),
  whole('model_info', (input) => input.profile.modelInfo(input.source), writeModelInfo),
  whole('prices', (input) => input.profile.prices(input.source, input.options), writePrices),
  whole('payments', (input) => input.profile.payments?.(input.source) ?? [], writePayments),
  whole('telegram_menus', (input) => input.profile.telegramMenus?.(input.source) ?? [], writeTelegramMenus),
];

export const accountSteps: readonly StreamStep[] = [
  stream('users', 'users', (profile, rows) => profile.users(rows), writeUsers),
  stream('user_inviters', 'users', (profile, rows) => profile.users(rows), writeInviters, true),
  stream(
    'channels',
    'channels',
    (profile, rows) => profile.channels(rows),
    writeChannels,
    false,
    (profile, rows) => (profile.channelNotes ? profile.channelNotes(rows) : []),
  ),
  stream('tokens', 'tokens', (profile, rows) => profile.tokens(rows), writeTokens),
  stream('redemptions', 'redemptions', (profile, rows) => profile.redemptions(rows), writeRedemptions),
  stream('orders', 'orders', (profile, rows) => profile.orders?.(rows) ?? [], writeOrders),
];

/**
 * Tasks name users, channels and keys, so they come after all three. A profile that leaves rows
 * out on purpose (new-api's video platforms) explains them in `taskNotes`, so they are not also
 * counted as unreadable.
 */
export const taskSteps: readonly StreamStep[] = [
  {
    ...stream('midjourneys', 'midjourneys', (profile, rows) => profile.midjourneys?.(rows) ?? [], writeMidjourneys),
    applies: (profile) => profile.midjourneys !== undefined,
  },
  {
    applies: (profile) => profile.tasks !== undefined,
    kind: 'stream',
    step: 'tasks',
    table: 'tasks',
    async write(executor, context, rows, input) {
      const notes = input.profile.taskNotes?.(rows) ?? [];
      const translated = input.profile.tasks?.(rows) ?? [];
      const result = await writeTasks(executor, context, translated);
      const explained = notes.reduce((sum, note) => sum + (note.count ?? 1), 0);
      const dropped = rows.length - translated.length - explained;
      if (dropped > 0)
        result.skipped.push({ table: 'tasks', reason: 'left out by the source profile', count: dropped });
      result.skipped.push(...notes);
      return result;
    },
  },
];

export const logStep: StreamStep = stream(
  'logs',
  'logs',
  (profile, rows) => profile.logs(rows),
  (executor, context, rows, input) => writeLogs(executor, context, rows, input.rollUpStatistics),
);

export { notCarriedStep };
