import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api.js';
import { postEventStream } from '../../lib/eventStream.js';
import { type ModelCheck, parseCheckFrame } from './channelCheck.js';

export type CheckPhase = 'idle' | 'running' | 'done' | 'stopped' | 'failed';

export interface ChannelCheckRun {
  phase: CheckPhase;
  /** The models' results in the order they arrived. */
  results: ModelCheck[];
  /** How many models the current run asked for. */
  total: number;
  error: string;
  start(id: number, models: string[]): void;
  stop(): void;
  /** Stops any run and forgets its results (the dialog closes). */
  reset(): void;
}

/**
 * Runs `POST /api/sse/channel/check` and collects each model's result as its event arrives.
 * Stopping aborts the request, which also ends the probes on the server (it watches the socket).
 */
export function useChannelCheck(): ChannelCheckRun {
  const { t } = useTranslation('channel');
  const [phase, setPhase] = useState<CheckPhase>('idle');
  const [results, setResults] = useState<ModelCheck[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState('');
  const current = useRef<AbortController | null>(null);

  const start = useCallback(
    (id: number, models: string[]) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      // Late events of an aborted or replaced run must not touch the state of the next one.
      const live = () => current.current === controller && !controller.signal.aborted;
      let completed = false;
      setResults([]);
      setTotal(models.length);
      setError('');
      setPhase('running');
      const onEvent = (data: string) => {
        const frame = parseCheckFrame(data);
        if (!frame || !live()) return;
        if (frame.type === 'result') setResults((list) => [...list, frame.data]);
        if (frame.type === 'done') completed = true;
      };
      postEventStream('/api/sse/channel/check', { id, models: models.join(',') }, onEvent, controller.signal).then(
        () => {
          if (!live()) return;
          // A stream that ends without "done" was cut (server stopped, proxy timeout).
          if (!completed) setError(t('check.endedEarly'));
          setPhase(completed ? 'done' : 'failed');
        },
        (failure: unknown) => {
          if (!live()) return;
          setError(errorMessage(failure));
          setPhase('failed');
        },
      );
    },
    [t],
  );

  const stop = useCallback(() => {
    if (!current.current) return;
    current.current.abort();
    current.current = null;
    setPhase((phase) => (phase === 'running' ? 'stopped' : phase));
  }, []);

  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setPhase('idle');
    setResults([]);
    setTotal(0);
    setError('');
  }, []);

  // Leaving the page stops a check still running.
  useEffect(() => () => current.current?.abort(), []);

  return { phase, results, total, error, start, stop, reset };
}
