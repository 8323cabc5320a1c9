/**
 * The first steps of a new installation, shown to an administrator until their first request:
 * a channel, a test of it, a key, a first call. Each is ticked from what the server holds, so the
 * list follows whatever order the steps were taken in.
 */
export type SetupStepId = 'channel' | 'test' | 'key' | 'try';

export interface SetupStep {
  id: SetupStepId;
  done: boolean;
  /** Where the step is taken. */
  to: string;
}

export interface SetupFacts {
  /** Channels of the installation (any status). */
  channels: number;
  /** Whether a channel has been tested (it records the time of its last test). */
  tested: boolean;
  /** The administrator's own API keys. */
  keys: number;
  /** Requests the administrator has made. */
  requests: number;
}

export function setupSteps(facts: SetupFacts): SetupStep[] {
  return [
    { id: 'channel', done: facts.channels > 0, to: '/panel/channel' },
    { id: 'test', done: facts.tested, to: '/panel/channel' },
    { id: 'key', done: facts.keys > 0, to: '/panel/token' },
    { id: 'try', done: facts.requests > 0, to: '/panel/playground' },
  ];
}

/** The step to offer as the next one: the first not done, or undefined when all are. */
export function nextSetupStep(steps: SetupStep[]): SetupStep | undefined {
  return steps.find((step) => !step.done);
}
