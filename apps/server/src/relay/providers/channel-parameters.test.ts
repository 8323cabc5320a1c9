import { describe, expect, it } from 'vitest';
import { addChannelParameters, withChannelParameters } from './channel-parameters.js';
import type { UpstreamCall } from './types.js';

const merged = (body: Record<string, unknown>, parameters: Record<string, unknown>, model = 'm', stage = 'send') => {
  const copy = structuredClone(body);
  addChannelParameters(copy, parameters, model, stage as 'send' | 'entry');
  return copy;
};

describe('a channel’s custom parameters', () => {
  it('only fill fields the body lacks unless overwrite is true', () => {
    const body = { model: 'm', temperature: 0.2 };
    expect(merged(body, { temperature: 0.9, top_p: 0.5 })).toEqual({ model: 'm', temperature: 0.2, top_p: 0.5 });
    expect(merged(body, { temperature: 0.9, overwrite: false })).toEqual(body);
    expect(merged(body, { temperature: 0.9, overwrite: true })).toEqual({ model: 'm', temperature: 0.9 });
    // One Hub reads only the boolean true.
    expect(merged(body, { temperature: 0.9, overwrite: 'true' })).toEqual(body);
  });

  it('never send their control keys nor set stream', () => {
    const body = { stream: false };
    expect(merged(body, { overwrite: true, per_model: false, stream: true, seed: 7 })).toEqual({
      stream: false,
      seed: 7,
    });
    expect(merged({}, { stream: true, seed: 7 })).toEqual({ seed: 7 });
  });

  it('under per_model take the member named after the model, and nothing else', () => {
    const parameters = {
      per_model: true,
      overwrite: true,
      temperature: 1,
      'gpt-4o': { temperature: 0.1, overwrite: false, stream: true },
      'o3-mini': { reasoning_effort: 'high' },
      broken: 'not an object',
    };
    expect(merged({ temperature: 0.5 }, parameters, 'gpt-4o')).toEqual({ temperature: 0.1 });
    expect(merged({}, parameters, 'o3-mini')).toEqual({ reasoning_effort: 'high' });
    expect(merged({ temperature: 0.5 }, parameters, 'other')).toEqual({ temperature: 0.5 });
    expect(merged({}, parameters, 'broken')).toEqual({});
    expect(merged({}, parameters, 'toString')).toEqual({});
  });

  it('under pre_add join the client request (entry) and not the body sent', () => {
    const parameters = { pre_add: true, max_tokens: 64 };
    expect(merged({}, parameters, 'm', 'send')).toEqual({});
    expect(merged({}, parameters, 'm', 'entry')).toEqual({ max_tokens: 64 });
    expect(merged({}, { max_tokens: 64 }, 'm', 'entry')).toEqual({});
  });
});

describe('an upstream call with the channel’s parameters', () => {
  const call = (body: string | Buffer, type = 'application/json'): UpstreamCall => ({
    url: 'http://upstream/x',
    headers: { 'Content-Type': type },
    body,
  });

  it('has them in its JSON body, as text or bytes as it was built', () => {
    const text = withChannelParameters(call('{"model":"a","top_k":1}'), { top_k: 5, seed: 3 }, 'a');
    expect(JSON.parse(text.body as string)).toEqual({ model: 'a', top_k: 1, seed: 3 });
    const bytes = withChannelParameters(call(Buffer.from('{"contents":[]}')), { generationConfig: { seed: 3 } }, 'g');
    expect(Buffer.isBuffer(bytes.body)).toBe(true);
    expect(JSON.parse(bytes.body.toString())).toEqual({ contents: [], generationConfig: { seed: 3 } });
  });

  it('picks the per_model member by the body’s model, else by the upstream model', () => {
    const parameters = { per_model: true, a: { seed: 1 }, g: { seed: 2 } };
    expect(JSON.parse(withChannelParameters(call('{"model":"a"}'), parameters, 'g').body as string).seed).toBe(1);
    expect(JSON.parse(withChannelParameters(call('{}'), parameters, 'g').body as string).seed).toBe(2);
  });

  it('leaves alone bodies that are not JSON objects, signed ones, and pre-added parameters', () => {
    const form = call('--b\r\n', 'multipart/form-data; boundary=b');
    expect(withChannelParameters(form, { seed: 1 }, 'a')).toBe(form);
    const list = call('[1]');
    expect(withChannelParameters(list, { seed: 1 }, 'a')).toBe(list);
    const signed = { ...call('{}'), sealed: true };
    expect(withChannelParameters(signed, { seed: 1 }, 'a')).toBe(signed);
    const plain = call('{}');
    expect(withChannelParameters(plain, { pre_add: true, seed: 1 }, 'a')).toBe(plain);
    expect(withChannelParameters(plain, {}, 'a')).toBe(plain);
  });
});
