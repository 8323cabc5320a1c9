import type { Redis } from 'ioredis';
import { randomString } from '../../platform/crypto.js';
import { type DatabaseHandle, isUniqueViolation } from '../../platform/db/index.js';
import { journalMarks } from '../../platform/journal/batches.js';
import type { Journal } from '../../platform/journal/journal.js';
import { createLedgerWriter, deltasFromFields, marksFromFields } from './ledger-writer.js';
import * as scripts from './redis-ledger-scripts.js';

/**
 * The shared ledger's way to the database (redis-ledger.ts): under a lock one node at a time
 * takes the pending amounts aside as a batch, writes it once by its id, and gives back
 * reservations nobody settled in time (never a lease: redis-lease-scripts.ts).
 */
export class RedisBatches {
  private readonly writeBatch: ReturnType<typeof createLedgerWriter>;
  private running: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly handle: DatabaseHandle,
    private readonly prefix: string,
    private readonly node: string,
    private readonly options: () => { journal?: Journal | undefined; onError?: ((error: unknown) => void) | undefined },
  ) {
    this.writeBatch = createLedgerWriter(handle);
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** One flush of this node's; false when another node's flush held the lock, so none ran here. */
  async round(): Promise<boolean> {
    while (this.running) await this.running;
    const round = this.flushOnce();
    this.running = round.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await round;
    } finally {
      this.running = null;
      await this.noteJournalMark();
    }
  }

  /** Lets the journal drop what Redis's batches (this node's or another's) carried to the database. */
  private async noteJournalMark(): Promise<void> {
    const { journal } = this.options();
    if (!journal || journal.sharedOpen === 0) return;
    try {
      const marks = await journalMarks(this.handle, [journal.id, `${journal.id}.lease`]);
      journal.sharedThrough(marks.get(journal.id) ?? 0);
      journal.sharedThrough(marks.get(`${journal.id}.lease`) ?? 0, true);
    } catch (error) {
      this.options().onError?.(error);
    }
  }

  /** Answers false when another node's flush held the lock, so none ran here. */
  private async flushOnce(): Promise<boolean> {
    const lock = this.key('flush-lock');
    const owner = `${this.node}-${Date.now()}`;
    if ((await this.redis.set(lock, owner, 'PX', 30_000, 'NX')) !== 'OK') return false;
    try {
      for (const batchId of await this.redis.smembers(this.key('inflight'))) await this.writeStored(batchId);
      const batchId = `${this.node}-${Date.now()}-${randomString(6)}`;
      const taken = Number(
        await this.redis.eval(
          scripts.TAKE_PENDING,
          4,
          this.key('pending'),
          this.key('inflight'),
          this.key('settled'),
          this.key('settled:old'),
          batchId,
          this.key(`batch:${batchId}`),
          Date.now(),
        ),
      );
      if (taken === 1) await this.writeStored(batchId);
      await this.refundExpired();
      return true;
    } finally {
      if ((await this.redis.get(lock)) === owner) await this.redis.del(lock);
    }
  }

  private async writeStored(batchId: string): Promise<void> {
    const fields = await this.redis.hgetall(this.key(`batch:${batchId}`));
    try {
      await this.writeBatch(deltasFromFields(fields), batchId, marksFromFields(fields));
    } catch (error) {
      // Another writer recorded the same batch id first: it is in the database already.
      if (!isUniqueViolation(error)) throw error;
    }
    await this.redis.eval(
      scripts.FINISH_BATCH,
      3,
      this.key(`batch:${batchId}`),
      this.key('inflight'),
      this.key('gen'),
      batchId,
    );
  }

  private async refundExpired(): Promise<void> {
    const records = await this.redis.hgetall(this.key('res'));
    const now = Date.now();
    for (const [id, record] of Object.entries(records)) {
      const expires = Number(record.split('|')[3]);
      if (expires <= now) await this.redis.eval(scripts.REFUND_EXPIRED, 1, this.key('res'), id, this.prefix, now);
    }
  }
}
