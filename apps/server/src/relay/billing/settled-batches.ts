import type { DatabaseHandle } from '../../platform/db/index.js';
import type { Journal, SettlementRecord } from '../../platform/journal/journal.js';
import { JournaledBatches } from '../../platform/journal/journaled-batches.js';
import { addSettlement, createLedgerWriter, isEmpty, type LedgerDeltas, newDeltas } from './ledger-writer.js';

/**
 * The in-process ledger's settled amounts on their way to the database: added per request (and
 * journaled in the same turn), written as one batch at a time (platform/journal/journaled-batches.ts).
 */
export class SettledBatches extends JournaledBatches<LedgerDeltas> {
  constructor(
    handle: DatabaseHandle,
    private readonly settlements: Journal | undefined,
    onError?: (error: unknown) => void,
  ) {
    const write = createLedgerWriter(handle);
    super(
      { prefix: 's', empty: newDeltas, isEmpty, write: (deltas, batchId) => write(deltas, batchId) },
      settlements,
      onError,
    );
  }

  add(record: SettlementRecord): void {
    addSettlement(this.open(), record);
    // Journaled in the same turn as it is counted: a crash after this line loses nothing.
    if (this.settlements) this.journaled(this.settlements.settlement(record));
  }
}
