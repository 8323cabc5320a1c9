import type { Cache } from '../platform/cache/index.js';

/** What the bot waits for from one user in one chat. */
export type ConversationStep = 'bind' | 'recharge';

const STEPS: readonly string[] = ['bind', 'recharge'];
/** A question left unanswered this long is forgotten. */
export const CONVERSATION_TTL_SECONDS = 300;

/**
 * Conversation state lives in the shared cache, not in memory: with a webhook, the user's answer
 * may reach another node than the one that asked the question.
 */
export class Conversations {
  constructor(private readonly cache: Cache) {}

  private key(chatId: number, userId: number): string {
    return `telegram:conversation:${chatId}:${userId}`;
  }

  async begin(chatId: number, userId: number, step: ConversationStep): Promise<void> {
    await this.cache.set(this.key(chatId, userId), step, CONVERSATION_TTL_SECONDS);
  }

  /** The step waited for, removed at once so that one answer is used once. */
  async take(chatId: number, userId: number): Promise<ConversationStep | undefined> {
    const key = this.key(chatId, userId);
    const step = await this.cache.get(key);
    if (!step || !STEPS.includes(step)) return undefined;
    // Two deliveries of the same answer at once: only the one that removes the key goes on.
    if (!(await this.cache.deleteIfEquals(key, step))) return undefined;
    return step as ConversationStep;
  }

  async cancel(chatId: number, userId: number): Promise<void> {
    await this.cache.delete(this.key(chatId, userId));
  }
}
