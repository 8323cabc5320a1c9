import type { DatabaseHandle } from '../../platform/db/index.js';
import type { Journal, SettlementRecord } from '../../platform/journal/journal.js';
import { JournaledBatches } from '../../platform/journal/journaled-batches.js';
import { addSettlement, createLedgerWriter, isEmpty, type LedgerDeltas, newDeltas } from './ledger-writer.js';

/**
 * The in-process ledger's settled amounts on their way to the database: added per request (and
 * journaled in the same turn), written as one batch at a time (platform/journal/journaled-batches.ts).
 */
export class SettledBatches extends JournaledBatches<LedgerDeltas> {
  constructor(handle: DatabaseHandle, journal: Journal | undefined, onError?: (error: unknown) => void) {
    super({ prefix: 's', empty: newDeltas, isEmpty, write: createLedgerWriter(handle) }, journal, onError);
  }

  add(record: SettlementRecord): void {
    addSettlement(this.open(), record);
    // Journaled in the same turn as it is counted: a crash after this line loses nothing.
    if (this.journal) this.journaled(this.journal.settlement(record));
  }
}
