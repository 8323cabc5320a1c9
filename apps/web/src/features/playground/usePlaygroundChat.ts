import { useCallback, useEffect, useRef, useState } from 'react';
import { ChatError, type ChatMessageInput, type ChatUsage, streamChat } from './chatStream.js';

export interface ChatTurn {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  /** Assistant turns only: how the answer ended (or that it is still arriving). */
  state: 'streaming' | 'done' | 'stopped' | 'failed';
  /** The server's message when the answer failed; '' when the request never reached it. */
  error?: string;
  usage?: ChatUsage;
  model?: string;
}

export interface SendOptions {
  text: string;
  key: string;
  model: string;
  system: string;
  temperature: number;
}

/** The conversation as the model should see it: failed answers are left out, stopped ones kept. */
export function conversationFor(turns: readonly ChatTurn[], system: string, text: string): ChatMessageInput[] {
  const messages: ChatMessageInput[] = [];
  if (system.trim()) messages.push({ role: 'system', content: system.trim() });
  for (const turn of turns) {
    if (turn.role === 'assistant' && (turn.state === 'failed' || !turn.content)) continue;
    messages.push({ role: turn.role, content: turn.content });
  }
  messages.push({ role: 'user', content: text });
  return messages;
}

/** One chat at a time: send, stop, start over. Answers stream into the last assistant turn. */
export function usePlaygroundChat() {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const controller = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const busy = turns.some((turn) => turn.state === 'streaming');

  useEffect(() => () => controller.current?.abort(), []);

  const send = useCallback(
    async ({ text, key, model, system, temperature }: SendOptions) => {
      if (controller.current || !text.trim()) return;
      const abort = new AbortController();
      controller.current = abort;
      const userId = nextId.current++;
      const answerId = nextId.current++;
      const messages = conversationFor(turns, system, text);
      setTurns((current) => [
        ...current,
        { id: userId, role: 'user', content: text, state: 'done' },
        { id: answerId, role: 'assistant', content: '', state: 'streaming', model },
      ]);
      const update = (change: (turn: ChatTurn) => ChatTurn) =>
        setTurns((current) => current.map((turn) => (turn.id === answerId ? change(turn) : turn)));

      try {
        await streamChat(
          { key, model, messages, temperature, signal: abort.signal },
          {
            onDelta: (delta) => update((turn) => ({ ...turn, content: turn.content + delta })),
            onUsage: (usage) => update((turn) => ({ ...turn, usage })),
          },
        );
        update((turn) => ({ ...turn, state: 'done' }));
      } catch (error) {
        if (abort.signal.aborted) {
          update((turn) => ({ ...turn, state: 'stopped' }));
        } else {
          const message = error instanceof ChatError ? error.message : '';
          update((turn) => ({ ...turn, state: 'failed', error: message }));
        }
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [turns],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setTurns([]);
  }, []);

  return { turns, busy, send, stop, reset };
}
