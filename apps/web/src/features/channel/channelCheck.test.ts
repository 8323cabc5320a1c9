import { describe, expect, it } from 'vitest';
import { type ModelCheck, modelOutcome, outcomeOf, parseCheckFrame, tallyChecks } from './channelCheck.js';

const check: ModelCheck = {
  model: 'gpt-x',
  process: [
    {
      name: 'basic',
      results: [
        { name: 'request', status: 1, remark: 'HTTP 200 in 12 ms' },
        { name: 'usage', status: 2, remark: 'no usage reported' },
      ],
      response: '{"choices":[]}',
    },
    { name: 'tool_call', results: [{ name: 'tool_calls', status: 0, remark: 'no tool call came back' }], response: '' },
  ],
};

describe('channel check frames', () => {
  it('reads result, heartbeat and done frames as the server sends them', () => {
    expect(parseCheckFrame(JSON.stringify({ type: 'result', data: check }))).toEqual({ type: 'result', data: check });
    expect(parseCheckFrame('{"type":"heartbeat","data":"ping"}')).toEqual({ type: 'heartbeat' });
    expect(parseCheckFrame('{"type":"done","data":"completed"}')).toEqual({ type: 'done' });
  });

  it('skips broken or foreign events instead of failing on them', () => {
    expect(parseCheckFrame('not json')).toBeUndefined();
    expect(parseCheckFrame('[1,2]')).toBeUndefined();
    expect(parseCheckFrame('{"type":"result","data":{"process":[]}}')).toBeUndefined();
    expect(parseCheckFrame('{"type":"other"}')).toBeUndefined();
  });

  it('fills what a result leaves out: no steps, a result without status is unknown', () => {
    expect(parseCheckFrame('{"type":"result","data":{"model":"m"}}')).toEqual({
      type: 'result',
      data: { model: 'm', process: [] },
    });
    const frame = parseCheckFrame(
      '{"type":"result","data":{"model":"m","process":[{"name":"basic","results":[{"name":"x"}]}]}}',
    );
    expect(frame).toEqual({
      type: 'result',
      data: { model: 'm', process: [{ name: 'basic', results: [{ name: 'x', status: 2, remark: '' }], response: '' }] },
    });
  });
});

describe('channel check verdicts', () => {
  it('maps statuses 0, 1 and 2 to failed, passed and unknown', () => {
    expect([0, 1, 2, 7].map(outcomeOf)).toEqual(['failed', 'passed', 'unknown', 'unknown']);
  });

  it('tallies the verdicts of a model, and one failure fails it', () => {
    expect(tallyChecks(check)).toEqual({ passed: 1, failed: 1, unknown: 1 });
    expect(modelOutcome(check)).toBe('failed');
  });

  it('passes a model with passes and unknowns, and leaves one with only unknowns unknown', () => {
    const [basic] = check.process;
    if (!basic) throw new Error('no basic step');
    expect(modelOutcome({ model: 'm', process: [basic] })).toBe('passed');
    const unknownOnly = { name: 'basic', results: [{ name: 'usage', status: 2, remark: '' }], response: '' };
    expect(modelOutcome({ model: 'm', process: [unknownOnly] })).toBe('unknown');
    expect(modelOutcome({ model: 'm', process: [] })).toBe('unknown');
  });
});
