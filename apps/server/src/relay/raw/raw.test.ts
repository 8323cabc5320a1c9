import { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { consumeRows, type RawRelay, startRawRelay } from '../../../test/providers/raw/raw-relay.js';
import { RAW_LOG_PREFIX } from './relay.js';

/**
 * OpenAI's stateful APIs through the gateway, driven by the official OpenAI SDK: the request
 * reaches the named channel's upstream with the channel's credentials (never the client's key),
 * the answer comes back as the upstream gave it, and each call leaves a consume log of quota 0.
 */
describe.each(availableDialects)('the raw pass-through of OpenAI stateful APIs on %s', (dialect) => {
  let raw: RawRelay;

  beforeAll(async () => {
    raw = await startRawRelay(dialect);
  }, 60_000);
  afterAll(async () => {
    await raw?.close();
  });
  beforeEach(() => raw.mock.reset());

  it('uploads, lists, reads and deletes a file on the OpenAI channel', async () => {
    const client = raw.client(raw.channels.openai);
    const lines = '{"custom_id":"1","method":"POST","url":"/v1/chat/completions","body":{}}\n'.repeat(50);
    const created = await client.files.create({
      file: await toFile(Buffer.from(lines), 'input.jsonl'),
      purpose: 'batch',
    });
    expect(created).toMatchObject({ object: 'file', filename: 'input.jsonl', purpose: 'batch', bytes: lines.length });
    expect(raw.mock.files.get(created.id)?.content?.toString()).toBe(lines);

    const upload = raw.mock.received[0];
    expect(upload).toMatchObject({ layout: 'openai', method: 'POST', path: '/files' });
    expect(upload?.headers.authorization).toBe(`Bearer ${raw.mock.behaviour.apiKey}`);
    expect(JSON.stringify(upload?.headers)).not.toContain(raw.rootKey.slice(3));

    const listed = await client.files.list({ purpose: 'batch' });
    expect(raw.mock.received[1]?.query.get('purpose')).toBe('batch');
    expect(listed.data.map((file) => file.id)).toContain(created.id);
    expect((await client.files.retrieve(created.id)).bytes).toBe(lines.length);

    const content = await client.files.content(created.id);
    expect(content.headers.get('content-disposition')).toBe('attachment; filename="input.jsonl"');
    expect(await content.text()).toBe(lines);

    expect(await client.files.delete(created.id)).toMatchObject({ id: created.id, deleted: true });
    expect(raw.mock.files.has(created.id)).toBe(false);

    const rows = (await consumeRows(raw.r, raw.rootUserId)).slice(-5);
    expect(rows.map((row) => row.content)).toEqual([
      `${RAW_LOG_PREFIX}/v1/files`,
      `${RAW_LOG_PREFIX}/v1/files`,
      `${RAW_LOG_PREFIX}/v1/files/${created.id}`,
      `${RAW_LOG_PREFIX}/v1/files/${created.id}/content`,
      `${RAW_LOG_PREFIX}/v1/files/${created.id}`,
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ quota: 0, channel_id: raw.channels.openai, model_name: '', prompt_tokens: 0 });
      expect(Number(row.request_time)).toBeGreaterThanOrEqual(0);
      expect(row.request_id).not.toBe('');
    }
    expect(await raw.r.t.services.userRepository.findById(raw.rootUserId)).toMatchObject({ quota: 0 });
  });

  it('creates and lists batches, the client query kept', async () => {
    const client = raw.client(raw.channels.openai);
    const input = await client.files.create({ file: await toFile(Buffer.from('{}\n'), 'b.jsonl'), purpose: 'batch' });
    const batch = await client.batches.create({
      input_file_id: input.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { job: 'nightly' },
    });
    expect(batch).toMatchObject({ object: 'batch', input_file_id: input.id, metadata: { job: 'nightly' } });
    await client.batches.list({ limit: 2 });
    expect(raw.mock.received.at(-1)).toMatchObject({ method: 'GET', path: '/batches' });
    expect(raw.mock.received.at(-1)?.query.get('limit')).toBe('2');
  });

  it('creates and lists vector stores on the OpenAI channel with its key, at quota 0', async () => {
    const client = raw.client(raw.channels.openai);
    const store = await client.vectorStores.create({ name: 'handbook' });
    expect(store).toMatchObject({ object: 'vector_store', name: 'handbook' });
    const sent = raw.mock.received.at(-1);
    expect(sent).toMatchObject({ layout: 'openai', method: 'POST', path: '/vector_stores' });
    expect(sent?.headers.authorization).toBe(`Bearer ${raw.mock.behaviour.apiKey}`);
    expect(JSON.stringify(sent?.headers)).not.toContain(raw.rootKey.slice(3));

    const listed = await client.vectorStores.list({ limit: 5 });
    expect(listed.data.map((each) => each.id)).toContain(store.id);
    expect(raw.mock.received.at(-1)).toMatchObject({ method: 'GET', path: '/vector_stores' });
    expect(raw.mock.received.at(-1)?.query.get('limit')).toBe('5');

    const rows = (await consumeRows(raw.r, raw.rootUserId)).slice(-2);
    expect(rows.map((row) => row.content)).toEqual([
      `${RAW_LOG_PREFIX}/v1/vector_stores`,
      `${RAW_LOG_PREFIX}/v1/vector_stores`,
    ]);
    for (const row of rows) expect(row).toMatchObject({ quota: 0, channel_id: raw.channels.openai });
  });

  it('creates and lists assistants on the OpenAI channel with its key, OpenAI-Beta passed on, at quota 0', async () => {
    const client = raw.client(raw.channels.openai);
    const assistant = await client.beta.assistants.create({
      model: 'gpt-4o',
      name: 'Tutor',
      instructions: 'Be brief.',
    });
    expect(assistant).toMatchObject({ object: 'assistant', model: 'gpt-4o', name: 'Tutor' });
    const sent = raw.mock.received.at(-1);
    expect(sent).toMatchObject({ layout: 'openai', method: 'POST', path: '/assistants' });
    expect(sent?.headers.authorization).toBe(`Bearer ${raw.mock.behaviour.apiKey}`);
    expect(sent?.headers['openai-beta']).toBe('assistants=v2');

    const listed = await client.beta.assistants.list();
    expect(listed.data.map((each) => each.id)).toContain(assistant.id);
    expect(raw.mock.received.at(-1)).toMatchObject({ method: 'GET', path: '/assistants' });

    const rows = (await consumeRows(raw.r, raw.rootUserId)).slice(-2);
    expect(rows.map((row) => row.content)).toEqual([
      `${RAW_LOG_PREFIX}/v1/assistants`,
      `${RAW_LOG_PREFIX}/v1/assistants`,
    ]);
    for (const row of rows) expect(row).toMatchObject({ quota: 0, channel_id: raw.channels.openai });
  });

  it('addresses Azure OpenAI under /openai with its api-version and api-key, not per deployment', async () => {
    const store = await raw.client(raw.channels.azure).vectorStores.create({ name: 'manuals' });
    expect(store).toMatchObject({ object: 'vector_store', name: 'manuals' });
    const sent = raw.mock.received.at(-1);
    expect(sent).toMatchObject({ layout: 'azure', method: 'POST', path: '/vector_stores' });
    expect(sent?.query.get('api-version')).toBe('2024-10-21');
    expect(sent?.headers['api-key']).toBe(raw.mock.behaviour.apiKey);
    expect(sent?.headers.authorization).toBeUndefined();

    await raw.client(raw.channels.azureV1).files.list({ purpose: 'assistants' });
    const v1 = raw.mock.received.at(-1);
    expect(v1).toMatchObject({ layout: 'azure-v1', method: 'GET', path: '/files' });
    expect(v1?.query.get('api-version')).toBe('preview');
    expect(v1?.query.get('purpose')).toBe('assistants');
    expect((await consumeRows(raw.r, raw.rootUserId)).at(-1)?.channel_id).toBe(raw.channels.azureV1);
  });

  it('streams an assistant run as server-sent events, OpenAI-Beta passed on', async () => {
    const stream = raw.client(raw.channels.openai).beta.threads.runs.stream('thread_abc', { assistant_id: 'asst_1' });
    const events: string[] = [];
    let text = '';
    stream.on('event', (event) => events.push(event.event));
    stream.on('textDelta', (delta) => {
      text += delta.value ?? '';
    });
    const run = await stream.finalRun();
    expect(run).toMatchObject({ id: 'run_mock_1', status: 'completed', thread_id: 'thread_abc' });
    expect(text).toBe('Paris is the capital of France.');
    expect(events).toContain('thread.message.delta');
    expect(raw.mock.received.at(-1)).toMatchObject({ method: 'POST', path: '/threads/thread_abc/runs' });
    expect(raw.mock.received.at(-1)?.headers['openai-beta']).toBe('assistants=v2');
    const row = (await consumeRows(raw.r, raw.rootUserId)).at(-1);
    expect(row).toMatchObject({ content: `${RAW_LOG_PREFIX}/v1/threads/thread_abc/runs`, quota: 0 });
    expect(Boolean(row?.is_stream)).toBe(true);
  });

  it('deletes a fine-tuned model on the channel', async () => {
    const deleted = await raw.client(raw.channels.openai).models.delete('ft:gpt-4o-mini:acme::abc123');
    expect(deleted).toMatchObject({ id: 'ft:gpt-4o-mini:acme::abc123', deleted: true });
    expect(raw.mock.received.at(-1)).toMatchObject({ method: 'DELETE', layout: 'openai' });
    expect(decodeURIComponent(raw.mock.received.at(-1)?.path ?? '')).toBe('/models/ft:gpt-4o-mini:acme::abc123');
  });
});
