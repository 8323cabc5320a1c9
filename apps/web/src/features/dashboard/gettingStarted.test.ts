import { describe, expect, it } from 'vitest';
import { nextSetupStep, setupSteps } from './gettingStarted.js';

describe('the getting-started steps', () => {
  it('starts a fresh installation at adding a channel', () => {
    const steps = setupSteps({ channels: 0, tested: false, keys: 0, requests: 0 });
    expect(steps.map((step) => [step.id, step.done])).toEqual([
      ['channel', false],
      ['test', false],
      ['key', false],
      ['try', false],
    ]);
    expect(nextSetupStep(steps)).toMatchObject({ id: 'channel', to: '/panel/channel' });
  });

  it('ticks each step from what exists, whatever order they were taken in', () => {
    const keyFirst = setupSteps({ channels: 0, tested: false, keys: 1, requests: 0 });
    expect(keyFirst.filter((step) => step.done).map((step) => step.id)).toEqual(['key']);
    expect(nextSetupStep(keyFirst)?.id).toBe('channel');
    const untested = setupSteps({ channels: 2, tested: false, keys: 1, requests: 0 });
    expect(nextSetupStep(untested)?.id).toBe('test');
    const ready = setupSteps({ channels: 2, tested: true, keys: 1, requests: 0 });
    expect(nextSetupStep(ready)).toMatchObject({ id: 'try', to: '/panel/playground' });
    expect(nextSetupStep(setupSteps({ channels: 1, tested: true, keys: 1, requests: 3 }))).toBeUndefined();
  });
});
