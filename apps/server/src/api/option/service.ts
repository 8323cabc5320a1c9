import {
  isOptionKey,
  isSecretOptionKey,
  normaliseOptionValue,
  type OptionEntry,
  type OptionKey,
  optionDefinitions,
  optionValueForReading,
  type SecretOptionStatus,
  secretOptionKeys,
} from '@one-hub/contracts';
import type { OptionReader } from '../../domain/options.js';
import type { ChangeBus } from '../../platform/changes.js';
import { randomHex } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import { changedFields } from '../audit/changes.js';
import { recordAudit } from '../audit/recorder.js';
import type { OptionRepository } from './repo.js';

/** Switches that need other options filled in before they may be turned on. */
const requiredBeforeEnabling: Partial<Record<OptionKey, OptionKey[]>> = {
  GitHubOAuthEnabled: ['GitHubClientId', 'GitHubClientSecret'],
  LarkAuthEnabled: ['LarkClientId', 'LarkClientSecret'],
  OIDCAuthEnabled: ['OIDCClientId', 'OIDCClientSecret', 'OIDCIssuer', 'OIDCScopes', 'OIDCUsernameClaims'],
  EmailDomainRestrictionEnabled: ['EmailDomainWhitelist'],
  WeChatAuthEnabled: ['WeChatServerAddress'],
  TurnstileCheckEnabled: ['TurnstileSiteKey', 'TurnstileSecretKey'],
};

/**
 * Settings, held in memory and read without a database round trip. A write goes to the database
 * first, then every node reloads through the cache's invalidation bus.
 */
export class OptionService implements OptionReader {
  private values = new Map<OptionKey, string>();
  /** Reloads started so far, and the newest one whose result is in `values`. */
  private loadsStarted = 0;
  private loadApplied = 0;
  /** Writes made on this node; a reload that overlapped one reads again. */
  private localWrites = 0;

  constructor(
    private readonly repo: OptionRepository,
    private readonly changes: ChangeBus,
    logger: Pick<Logger, 'error'>,
  ) {
    changes.on('options', (_change, origin) => {
      if (origin === 'local') return;
      this.load().catch((error: unknown) => logger.error({ err: error }, 'reloading options failed'));
    });
  }

  /**
   * Reads every option from the database. Reloads triggered by the bus can overlap each other and
   * this node's own writes, so a result is applied only if no newer reload has been applied and no
   * write happened on this node while it read; otherwise a stale read would undo a newer value.
   */
  async load(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const sequence = ++this.loadsStarted;
      const writesBefore = this.localWrites;
      const rows = await this.repo.loadAll();
      if (sequence < this.loadApplied) return;
      if (this.localWrites !== writesBefore && attempt < 5) continue;
      const values = new Map<OptionKey, string>();
      for (const [key, definition] of Object.entries(optionDefinitions))
        values.set(key as OptionKey, definition.default);
      for (const row of rows) if (isOptionKey(row.key)) values.set(row.key, optionValueForReading(row.key, row.value));
      this.values = values;
      this.loadApplied = sequence;
      return;
    }
  }

  get(key: OptionKey): string {
    return this.values.get(key) ?? optionDefinitions[key].default;
  }

  getBoolean(key: OptionKey): boolean {
    return this.get(key) === 'true';
  }

  getNumber(key: OptionKey): number {
    const value = Number(this.get(key));
    return Number.isFinite(value) ? value : Number(optionDefinitions[key].default);
  }

  /** Every option an administrator may read; secrets are write-only and never listed. */
  list(): OptionEntry[] {
    return [...this.values.entries()]
      .filter(([key]) => !isSecretOptionKey(key))
      .map(([key, value]) => ({ key, value }));
  }

  /** Which write-only options hold a value; says nothing more about the value. */
  secretStatus(): SecretOptionStatus[] {
    return secretOptionKeys.map((key) => ({ key, set: this.get(key) !== '' }));
  }

  /** This installation's id, created on first start; every node of it reads the same one. */
  async instanceId(): Promise<string> {
    const current = this.get('InstanceId');
    if (current) return current;
    const stored = await this.repo.insertIfAbsent('InstanceId', randomHex(8));
    this.localWrites++;
    this.values.set('InstanceId', stored);
    return stored;
  }

  async update(key: string, rawValue: string): Promise<void> {
    if (!isOptionKey(key)) throw AppError.badRequest(`key: unknown option '${key}'`);
    if (key === 'InstanceId') {
      // Saving back what was read (a console or a backup script writing every option) is no change.
      if (rawValue === this.get('InstanceId')) return;
      throw AppError.badRequest('key: InstanceId is set by the server and cannot be changed');
    }
    const normalised = normaliseOptionValue(key, rawValue);
    if ('error' in normalised) throw AppError.badRequest(`value: ${normalised.error}`);
    if (normalised.value === 'true') {
      const missing = (requiredBeforeEnabling[key] ?? []).filter((required) => !this.get(required).trim());
      if (missing.length > 0) throw AppError.badRequest(`value: set ${missing.join(', ')} before enabling ${key}`);
    }
    await this.repo.transaction(async (transaction) => {
      const stored = await this.repo.find(key, transaction);
      const before = stored === undefined ? optionDefinitions[key].default : optionValueForReading(key, stored);
      await this.repo.upsert(key, normalised.value, transaction);
      // A secret setting is recorded as changed, never with its value (the same list GET /api/option/ hides).
      await recordAudit(transaction, {
        resource: 'option',
        action: 'update',
        targetId: key,
        targetName: key,
        changes: changedFields(
          { value: before },
          { value: normalised.value },
          { secret: isSecretOptionKey(key) ? ['value'] : [] },
        ),
      });
    });
    this.localWrites++;
    this.values.set(key, normalised.value);
    await this.changes.publish('options', { key });
  }
}
