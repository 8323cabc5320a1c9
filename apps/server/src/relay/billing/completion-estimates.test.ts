import { describe, expect, it } from 'vitest';
import { CompletionEstimates, MINIMUM_ANSWERS, requestedCompletionTokens } from './completion-estimates.js';

describe('the completion estimate learned from recent answers', () => {
  it('knows nothing until enough answers of the model were seen', () => {
    const estimates = new CompletionEstimates();
    for (let index = 1; index < MINIMUM_ANSWERS; index++) estimates.record('gpt-4o-mini', 100);
    expect(estimates.estimate('gpt-4o-mini')).toBeUndefined();
    estimates.record('gpt-4o-mini', 100);
    expect(estimates.estimate('gpt-4o-mini')).toBe(100);
    expect(estimates.estimate('another-model')).toBeUndefined();
  });

  it('covers 95 of the last 100 answers, not the longest outlier', () => {
    const estimates = new CompletionEstimates();
    // Four answers the window has forgotten by the end (the estimate is computed every 8 answers:
    // 104 makes it count the last 100), then 94 short answers, 5 of 400 tokens and one of 4000.
    for (let index = 0; index < 4; index++) estimates.record('m', 9000);
    for (let index = 0; index < 94; index++) estimates.record('m', 10 + index);
    for (let index = 0; index < 5; index++) estimates.record('m', 400);
    estimates.record('m', 4000);
    expect(estimates.estimate('m')).toBe(400);
  });

  it('forgets answers older than the last 100', () => {
    const estimates = new CompletionEstimates();
    for (let index = 0; index < 100; index++) estimates.record('m', 2000);
    expect(estimates.estimate('m')).toBe(2000);
    for (let index = 0; index < 104; index++) estimates.record('m', 50);
    expect(estimates.estimate('m')).toBe(50);
  });

  it('ignores counts that are not counts', () => {
    const estimates = new CompletionEstimates();
    for (let index = 0; index < MINIMUM_ANSWERS; index++) estimates.record('m', Number.NaN);
    estimates.record('m', -5);
    expect(estimates.estimate('m')).toBeUndefined();
  });
});

describe("the client's own limit on the answer", () => {
  it('is read from each surface’s field', () => {
    expect(requestedCompletionTokens({ model: 'm', max_tokens: 300 })).toBe(300);
    expect(requestedCompletionTokens({ max_completion_tokens: 200, max_tokens: 300 })).toBe(200);
    // Responses API.
    expect(requestedCompletionTokens({ max_output_tokens: 150 })).toBe(150);
    // Gemini, in either spelling.
    expect(requestedCompletionTokens({ generationConfig: { maxOutputTokens: 120 } })).toBe(120);
    expect(requestedCompletionTokens({ generation_config: { max_output_tokens: 110 } })).toBe(110);
  });

  it('is absent when none is given or the value is not a positive number', () => {
    expect(requestedCompletionTokens({ model: 'm' })).toBeUndefined();
    expect(requestedCompletionTokens({ max_tokens: 0 })).toBeUndefined();
    expect(requestedCompletionTokens({ max_tokens: '300' })).toBeUndefined();
    expect(requestedCompletionTokens({ max_tokens: -1, max_output_tokens: 40 })).toBe(40);
    expect(requestedCompletionTokens([] as never)).toBeUndefined();
    expect(requestedCompletionTokens(null as never)).toBeUndefined();
  });
});
