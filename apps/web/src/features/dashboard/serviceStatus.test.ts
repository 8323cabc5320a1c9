import { describe, expect, it } from 'vitest';
import { monitorGroups } from './serviceStatus.js';

describe('monitorGroups', () => {
  it("gives each monitor its latest heartbeat's state and its 24-hour uptime", () => {
    const groups = monitorGroups(
      {
        publicGroupList: [
          {
            id: 1,
            name: 'Relay',
            monitorList: [
              { id: 7, name: 'OpenAI' },
              { id: 8, name: 'Claude' },
            ],
          },
          { id: 2, name: 'Console' },
        ],
      },
      {
        heartbeatList: { 7: [{ status: 0 }, { status: 1 }], 8: [{ status: 1 }, { status: 3 }] },
        uptimeList: { '7_24': 0.99876, '8_720': 1 },
      },
    );
    expect(groups).toEqual([
      {
        id: 1,
        name: 'Relay',
        monitors: [
          { id: 7, name: 'OpenAI', state: 'up', uptime24h: 99.88 },
          { id: 8, name: 'Claude', state: 'maintenance', uptime24h: null },
        ],
      },
      { id: 2, name: 'Console', monitors: [] },
    ]);
  });

  it('marks monitors without heartbeats unknown', () => {
    expect(monitorGroups({ publicGroupList: [{ id: 1, name: 'G', monitorList: [{ id: 3, name: 'X' }] }] }, {})).toEqual(
      [{ id: 1, name: 'G', monitors: [{ id: 3, name: 'X', state: 'unknown', uptime24h: null }] }],
    );
  });
});
