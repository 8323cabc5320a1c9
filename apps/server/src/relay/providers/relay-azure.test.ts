import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NativeUpstreams, startNativeUpstreams } from '../../../test/mocks/native-upstreams.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';

const AZURE_KEY = 'azure-resource-key-0123456789';

interface AzureCall {
  path: string;
  apiVersion: string | null;
  apiKey: string | undefined;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** Azure OpenAI as documented: deployments in the path, `api-version` in the query, `api-key` header. */
async function startAzureMock(): Promise<{ url: string; calls: AzureCall[]; server: Server }> {
  const calls: AzureCall[] = [];
  const server = createServer(async (request, response) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const url = new URL(request.url ?? '/', 'http://azure');
    const body = JSON.parse(Buffer.concat(parts).toString() || '{}') as Record<string, unknown>;
    calls.push({
      path: url.pathname,
      apiVersion: url.searchParams.get('api-version'),
      apiKey: request.headers['api-key'] as string | undefined,
      authorization: request.headers.authorization,
      body,
    });
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.headers['api-key'] !== AZURE_KEY) {
      return send(401, { error: { code: '401', message: 'Access denied due to invalid subscription key.' } });
    }
    const deployment = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(url.pathname);
    if (!deployment || !url.searchParams.get('api-version')) {
      return send(404, {
        error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' },
      });
    }
    if (deployment[2] === 'embeddings') {
      return send(200, {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.5, 0.25] }],
        model: deployment[1],
        usage: { prompt_tokens: 2, total_tokens: 2 },
      });
    }
    const usage = { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 };
    if (body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null, extra: object = {}) =>
        response.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-az', object: 'chat.completion.chunk', created: 1, model: deployment[1], choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
        );
      chunk({ role: 'assistant', content: 'Hello ' }, null);
      chunk({ content: 'from Azure.' }, 'stop');
      response.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-az', object: 'chat.completion.chunk', created: 1, model: deployment[1], choices: [], usage })}\n\n`,
      );
      response.end('data: [DONE]\n\n');
      return;
    }
    return send(200, {
      id: 'chatcmpl-az',
      object: 'chat.completion',
      created: 1,
      model: deployment[1],
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from Azure.' }, finish_reason: 'stop' }],
      usage,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, server };
}

describe('Azure OpenAI channels, and channel tests of translated types', () => {
  let r: RelayTestContext;
  let azure: Awaited<ReturnType<typeof startAzureMock>>;
  let native: NativeUpstreams;
  let azureId: number;

  beforeAll(async () => {
    r = await startRelayTest();
    azure = await startAzureMock();
    native = await startNativeUpstreams();
    azureId = await r.addChannel({
      name: 'azure',
      type: providerType('azure'),
      key: AZURE_KEY,
      base_url: azure.url,
      other: '2024-10-21',
      models: 'gpt-4o-az,embed-az',
    });
    await r.setPrice('gpt-4o-az', 1, 2);
    await r.setPrice('embed-az', 0.5, 0);
  });
  afterAll(async () => {
    await r?.close();
    await native?.close();
    await new Promise((resolve) => azure?.server.close(resolve));
  });

  it('addresses the deployment with api-version and api-key, never a bearer key', async () => {
    const completion = await r.client.chat.completions.create({
      model: 'gpt-4o-az',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from Azure.');
    const call = azure.calls.at(-1);
    expect(call).toMatchObject({
      path: '/openai/deployments/gpt-4o-az/chat/completions',
      apiVersion: '2024-10-21',
      apiKey: AZURE_KEY,
      authorization: undefined,
    });
    expect(await lastConsumeLog(r)).toMatchObject({ model_name: 'gpt-4o-az', prompt_tokens: 12, completion_tokens: 4 });

    const embedding = await r.client.embeddings.create({ model: 'embed-az', input: 'hi', encoding_format: 'float' });
    expect(embedding.data[0]?.embedding).toEqual([0.5, 0.25]);
    expect(azure.calls.at(-1)?.path).toBe('/openai/deployments/embed-az/embeddings');
  });

  it('streams from Azure, and serves Anthropic clients through translation', async () => {
    const stream = await r.client.chat.completions.create({
      model: 'gpt-4o-az',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from Azure.');
    expect(azure.calls.at(-1)?.body.stream_options).toEqual({ include_usage: true });

    const claude = new Anthropic({ apiKey: r.apiKey, baseURL: r.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    const message = await claude.messages.create({
      model: 'gpt-4o-az',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Azure.' }]);
    expect(azure.calls.at(-1)).toMatchObject({
      path: '/openai/deployments/gpt-4o-az/chat/completions',
      apiKey: AZURE_KEY,
    });
  });

  it('tests Azure, Anthropic and Gemini channels from the channel screen', async () => {
    const azureTest = await r.admin('GET', `/api/channel/test/${azureId}?model=gpt-4o-az`);
    expect(azureTest.body).toMatchObject({ success: true });

    const claudeId = await r.addChannel({
      name: 'claude',
      type: providerType('anthropic'),
      key: native.behaviour.anthropicKey,
      base_url: native.url,
      models: 'claude-haiku-4-5',
    });
    expect((await r.admin('GET', `/api/channel/test/${claudeId}?model=claude-haiku-4-5`)).body).toMatchObject({
      success: true,
    });
    expect(native.received.at(-1)).toMatchObject({ path: '/v1/messages' });

    const badGemini = await r.addChannel({
      name: 'gemini',
      type: providerType('gemini'),
      key: 'AIza-wrong',
      base_url: native.url,
      models: 'gemini-2.5-flash',
    });
    const failed = await r.admin('GET', `/api/channel/test/${badGemini}?model=gemini-2.5-flash`);
    expect(failed.body.success).toBe(false);
    expect(failed.body.message).toContain('API key not valid');
    expect(failed.body.message).not.toContain('AIza-wrong');
  });
});
