import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { UserStatus } from '@one-hub/contracts';
import { expect } from 'vitest';
import { LogWriter } from '../src/api/log/writer.js';
import { providerType } from '../src/domain/channel-types/registry.js';
import { caller, channelBody } from './api/channel-support.js';
import { consumeRow } from './api/consume-rows.js';
import { ROOT_PASSWORD, type TestApp } from './app.js';

export type McpTransportKind = 'streamable' | 'sse';

/** The URL an MCP client is configured with, for each transport. */
export function mcpUrl(base: string, kind: McpTransportKind, token: string): URL {
  return new URL(kind === 'streamable' ? `${base}/mcp/${token}` : `${base}/mcp/sse/${token}`);
}

/** The SDK's own client, connected (initialised) over the chosen transport. */
export async function connectMcp(base: string, kind: McpTransportKind, token: string): Promise<Client> {
  const client = new Client({ name: 'one-hub-test', version: '1.0.0' });
  const url = mcpUrl(base, kind, token);
  await client.connect(kind === 'streamable' ? new StreamableHTTPClientTransport(url) : new SSEClientTransport(url));
  return client;
}

export interface McpUser {
  id: number;
  cookie: string;
  token: string;
}

/** A common user with a fresh management access token (the one `POST /api/user/token` shows). */
export async function userWithToken(t: TestApp, name: string): Promise<McpUser> {
  const user = await t.createUser(name);
  const response = await caller(t)('POST', '/api/user/token', user.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return { ...user, token: response.json().data as string };
}

export async function setUserColumns(
  t: TestApp,
  id: number,
  columns: { quota?: number; used_quota?: number; request_count?: number; status?: UserStatus },
): Promise<void> {
  await t.database.db.updateTable('users').set(columns).where('id', '=', id).execute();
}

/** Usage rows the dashboard's roll-up counts: two models today, one a week ago, one outside its window. */
export async function seedUsage(t: TestApp, userId: number, otherUserId: number): Promise<void> {
  const writer = new LogWriter(t.database, { flushIntervalMs: 60_000 });
  writer.push(consumeRow(userId, 0, 'gpt-4o', 200));
  writer.push(consumeRow(userId, 0, 'gpt-4o', 300));
  writer.push(consumeRow(userId, 0, 'acme-chat', 50));
  writer.push(consumeRow(userId, 7, 'gpt-4o', 1000));
  writer.push(consumeRow(userId, 30, 'gpt-4o', 9000));
  writer.push(consumeRow(otherUserId, 0, 'gpt-4o', 7777));
  await writer.close();
}

/** Prices and channels: two models in the public default group, one only in the private vip group. */
export async function seedModels(t: TestApp): Promise<void> {
  const call = caller(t);
  const root = await t.login('root', ROOT_PASSWORD);
  const prices = [
    { model: 'acme-chat', type: 'tokens', channel_type: providerType('anthropic'), input: 1.5, output: 7.5 },
    { model: 'acme-image', type: 'times', channel_type: providerType('anthropic'), input: 20, output: 0 },
    { model: 'vip-model', type: 'tokens', channel_type: providerType('openai'), input: 1, output: 2 },
  ];
  for (const price of prices) {
    const created = await call('POST', '/api/prices/single', root, price);
    expect(created.statusCode, created.body).toBe(200);
  }
  for (const channel of [
    { name: 'public', models: 'acme-chat,acme-image', group: 'default' },
    { name: 'vip only', models: 'vip-model', group: 'vip' },
  ]) {
    const created = await call('POST', '/api/channel/', root, channelBody(channel));
    expect(created.statusCode, created.body).toBe(200);
  }
}
