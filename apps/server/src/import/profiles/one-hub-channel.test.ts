import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../../api/channel/repo.js';
import { toRoutingChannel } from '../../api/channel/routing.js';
import { addChannelParameters } from '../../relay/providers/channel-parameters.js';
import { oneHubChannel } from './one-hub-rows.js';

/**
 * A One Hub channel's other parameters, headers and proxy come over as One Hub stored them, and
 * the relay reads them as One Hub did: control keys kept for the merge, headers as a map, and
 * `%s` in the proxy made the md5 of the key.
 */
describe('a channel imported from One Hub', () => {
  const customParameter = JSON.stringify({
    overwrite: true,
    per_model: true,
    'gpt-4o': { temperature: 0.1, max_tokens: 512 },
  });
  const row = {
    id: 7,
    type: 1,
    key: 'sk-one-hub-key',
    status: 1,
    name: 'with parameters',
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default',
    model_headers: '{"X-Team":"blue","X-Trace":"on"}',
    custom_parameter: customParameter,
    proxy: 'socks5h://user-%s:pass@proxy.internal:1080',
  };

  it('keeps the three fields verbatim', () => {
    expect(oneHubChannel(row)).toMatchObject({
      model_headers: row.model_headers,
      custom_parameter: customParameter,
      proxy: row.proxy,
    });
  });

  it('reaches the relay with its parameters applied as One Hub applied them', () => {
    const imported = oneHubChannel(row);
    const routed = toRoutingChannel({ ...imported, id: 7, deleted_at: null } as unknown as ChannelRecord);
    expect(routed.model_headers).toEqual({ 'X-Team': 'blue', 'X-Trace': 'on' });
    const keyHash = createHash('md5').update(row.key).digest('hex');
    expect(routed.proxy).toBe(`socks5h://user-${keyHash}:pass@proxy.internal:1080`);
    const forGpt4o = { model: 'gpt-4o', temperature: 0.7 };
    addChannelParameters(forGpt4o, routed.custom_parameter, 'gpt-4o', 'send');
    expect(forGpt4o).toEqual({ model: 'gpt-4o', temperature: 0.1, max_tokens: 512 });
    const forMini = { model: 'gpt-4o-mini', temperature: 0.7 };
    addChannelParameters(forMini, routed.custom_parameter, 'gpt-4o-mini', 'send');
    expect(forMini).toEqual({ model: 'gpt-4o-mini', temperature: 0.7 });
  });
});
