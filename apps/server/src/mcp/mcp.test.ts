import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { daysAgo } from '../../test/api/days.js';
import { listenOnLoopback, startTestApp, type TestApp } from '../../test/app.js';
import { availableDialects } from '../../test/databases.js';
import {
  connectMcp,
  type McpTransportKind,
  type McpUser,
  seedModels,
  seedUsage,
  setUserColumns,
  userWithToken,
} from '../../test/mcp.js';

interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

/** Issue 35 item 1: the MCP server's tools, called with the SDK's own client over both transports. */
describe.each(availableDialects)('the MCP server on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let alice: McpUser;
  let bob: McpUser;

  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { MCP_ENABLE: 'true' } });
    base = await listenOnLoopback(t);
    alice = await userWithToken(t, 'alice');
    bob = await userWithToken(t, 'bob');
    await setUserColumns(t, alice.id, { quota: 1_500_000, used_quota: 250_000, request_count: 4 });
    await seedModels(t);
    await seedUsage(t, alice.id, bob.id);
  });
  afterAll(() => t?.close());

  describe.each<McpTransportKind>(['streamable', 'sse'])('over %s', (kind) => {
    let client: Client;
    beforeAll(async () => {
      client = await connectMcp(base, kind, alice.token);
    });
    afterAll(() => client?.close());

    const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> =>
      (await client.callTool({ name, arguments: args })) as ToolAnswer;

    /** A successful answer: the object, which the text block repeats as JSON for text-only clients. */
    const output = async (name: string, args: Record<string, unknown> = {}) => {
      const answer = await call(name, args);
      expect(answer.isError ?? false, JSON.stringify(answer)).toBe(false);
      expect(answer.content).toEqual([{ type: 'text', text: JSON.stringify(answer.structuredContent) }]);
      return answer.structuredContent;
    };

    const refusal = async (name: string, args: Record<string, unknown>) => {
      const answer = await call(name, args);
      expect(answer.isError).toBe(true);
      return answer.content.map((block) => block.text).join('');
    };

    it('announces itself and lists the four tools with their arguments', async () => {
      expect(client.getServerVersion()?.name).toBe('One Hub MCP server');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['available_model', 'calculator', 'current_time', 'dashboard']);
      const argumentsOf = (name: string) =>
        Object.keys(tools.find((tool) => tool.name === name)?.inputSchema.properties ?? {});
      expect(tools.map((tool) => argumentsOf(tool.name))).toEqual([['group'], ['expression'], ['timezone'], []]);
      expect(tools.find((tool) => tool.name === 'calculator')?.inputSchema.required).toEqual(['expression']);
    });

    it('calculator evaluates an expression and names what is wrong with a bad one', async () => {
      expect(await output('calculator', { expression: '(1.5 + 2) * 3 ^ 2 % 7' })).toEqual({
        expression: '(1.5 + 2) * 3 ^ 2 % 7',
        result: 3.5,
      });
      expect(await refusal('calculator', { expression: '2 * (3 + 4' })).toBe(
        'a ")" is missing for the "(" at position 5',
      );
      expect(await refusal('calculator', { expression: '1 / 0' })).toBe('division by zero');
      expect(await refusal('calculator', {})).toMatch(/^MCP error -32602: Input validation error: .*expression/);
    });

    it('current_time tells the time in the asked IANA zone and refuses an unknown one', async () => {
      const moment = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
      // Only Date is replaced: the HTTP exchange keeps its real timers.
      vi.useFakeTimers({ toFake: ['Date'], now: moment });
      try {
        expect(await output('current_time', { timezone: 'Asia/Kolkata' })).toEqual({
          timezone: 'Asia/Kolkata',
          time: '2026-01-02T08:34:05.678+05:30',
          utc: '2026-01-02T03:04:05.678Z',
          unix: moment / 1000 - 0.678,
        });
        expect(await output('current_time', { timezone: 'UTC' })).toMatchObject({
          time: '2026-01-02T03:04:05.678+00:00',
        });
      } finally {
        vi.useRealTimers();
      }
      expect(await refusal('current_time', { timezone: 'Mars/Olympus_Mons' })).toBe(
        'unknown time zone "Mars/Olympus_Mons": use an IANA name such as Europe/Paris or Asia/Shanghai',
      );
    });

    it('available_model lists the models of the groups the user may use, with prices in dollars', async () => {
      expect(await output('available_model')).toEqual({
        group: 'default',
        groups: [{ symbol: 'default', name: '默认分组', ratio: 1 }],
        models: [
          {
            model: 'acme-chat',
            owned_by: 'Anthropic',
            groups: ['default'],
            type: 'tokens',
            usd_per_million_input_tokens: 3,
            usd_per_million_output_tokens: 15,
          },
          { model: 'acme-image', owned_by: 'Anthropic', groups: ['default'], type: 'times', usd_per_call: 0.04 },
        ],
      });
      expect(await refusal('available_model', { group: 'vip' })).toBe(
        'group "vip" is not one you can use; yours: default',
      );
    });

    it('dashboard reports the balance, the use and the last days per model of this user only', async () => {
      const usage = (model: string, requests: number, quota: number) => ({
        model,
        requests,
        quota,
        usd: quota / 500_000,
        prompt_tokens: 10 * requests,
        completion_tokens: 20 * requests,
      });
      expect(await output('dashboard')).toEqual({
        username: 'alice',
        group: 'default',
        quota: 1_500_000,
        quota_usd: 3,
        used_quota: 250_000,
        used_quota_usd: 0.5,
        request_count: 4,
        days: 8,
        usage_by_model: [usage('gpt-4o', 3, 1500), usage('acme-chat', 1, 50)],
        usage_by_day: [
          { date: daysAgo(7).date, ...usage('gpt-4o', 1, 1000) },
          { date: daysAgo(0).date, ...usage('acme-chat', 1, 50) },
          { date: daysAgo(0).date, ...usage('gpt-4o', 2, 500) },
        ],
      });
    });
  });

  it('answers each user with their own data', async () => {
    const client = await connectMcp(base, 'streamable', bob.token);
    try {
      const answer = (await client.callTool({ name: 'dashboard', arguments: {} })) as ToolAnswer;
      expect(answer.structuredContent).toMatchObject({
        username: 'bob',
        usage_by_model: [{ model: 'gpt-4o', requests: 1, quota: 7777 }],
      });
    } finally {
      await client.close();
    }
  });
});
