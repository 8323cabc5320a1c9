import { describe, expect, it } from 'vitest';
import { useChannelAdmin } from '../../../test/api/channel-admin.js';
import { channelBody } from '../../../test/api/channel-support.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';

describe.each(availableDialects)('the getting-started facts on %s', (dialect) => {
  const s = useChannelAdmin(dialect);
  const facts = async () => {
    const response = await s.call('GET', '/api/channel/setup', s.root);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  it('counts channels, whether one was tested, and the administrator own keys, for administrators only', async () => {
    expect(await facts()).toEqual({ channels: 0, tested: false, keys: 0 });
    const created = await s.call(
      'POST',
      '/api/channel/',
      s.root,
      channelBody({ name: 'first', type: providerType('openai'), key: 'sk-a' }),
    );
    expect(created.statusCode, created.body).toBe(200);
    // A key of another user does not count; root's own does.
    expect((await s.call('POST', '/api/token/', s.plain, { name: 'theirs' })).statusCode).toBe(200);
    expect((await s.call('POST', '/api/token/', s.root, { name: 'mine' })).statusCode).toBe(200);
    expect(await facts()).toEqual({ channels: 1, tested: false, keys: 1 });
    // A test records its time on the channel.
    await s.t.database.db.updateTable('channels').set({ test_time: 1_800_000_000 }).execute();
    expect(await facts()).toMatchObject({ tested: true });
    expect((await s.call('GET', '/api/channel/setup', s.plain)).statusCode).toBe(403);
  });
});
