import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { compatibleVendors } from '../../../domain/channel-types/compatible.js';
import { providerType } from '../../../domain/channel-types/registry.js';
import type { RouterChannel } from '../../routing/router.js';
import { ZhipuTokens } from '../zhipu/token.js';
import {
  callHeaders,
  openAiTarget,
  prepareOpenAiRequest,
  resolveOpenAiTarget,
  sparkBearer,
  sparkModel,
  upstreamUrl,
} from './request.js';

const target = async (type: number, baseUrl: string, path = '/v1/chat/completions', model = 'gpt-4o') =>
  (await resolveOpenAiTarget({ type, key: 'k', other: '' }, baseUrl, path, model))?.url;

const channelOf = (slug: string, fields: Partial<RouterChannel> = {}): RouterChannel => ({
  id: 7,
  type: providerType(slug),
  name: slug,
  key: 'k',
  base_url: '',
  other: '',
  proxy: '',
  models: [],
  group: ['default'],
  priority: 0,
  weight: 1,
  model_mapping: {},
  model_headers: {},
  custom_parameter: {},
  plugin: {},
  only_chat: false,
  disabled_stream: [],
  ...fields,
});

const HELLO = { messages: [{ role: 'user', content: 'Hi' }] };

describe('upstream URLs of OpenAI-compatible vendors', () => {
  it('uses each vendor’s documented base URL and OpenAI’s paths under it', async () => {
    const defaults: Record<string, string | undefined> = {};
    for (const vendor of compatibleVendors.filter((v) => v.defaultBaseUrl)) {
      defaults[vendor.slug] = await target(vendor.type, vendor.defaultBaseUrl);
    }
    expect(defaults).toMatchObject({
      openai: 'https://api.openai.com/v1/chat/completions',
      deepseek: 'https://api.deepseek.com/v1/chat/completions',
      moonshot: 'https://api.moonshot.cn/v1/chat/completions',
      groq: 'https://api.groq.com/openai/v1/chat/completions',
      mistral: 'https://api.mistral.ai/v1/chat/completions',
      openrouter: 'https://openrouter.ai/api/v1/chat/completions',
      xai: 'https://api.x.ai/v1/chat/completions',
      siliconflow: 'https://api.siliconflow.cn/v1/chat/completions',
      lingyi: 'https://api.lingyiwanwu.com/v1/chat/completions',
      ollama: 'http://localhost:11434/v1/chat/completions',
      // GitHub Models serves OpenAI's paths at the root of its endpoint, without /v1.
      github: 'https://models.inference.ai.azure.com/chat/completions',
      zhipu: 'https://open.bigmodel.cn/api/paas/v4/chat/completions',
      ali: 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions',
      xunfei: 'https://spark-api-open.xf-yun.com/v1/chat/completions',
    });
  });

  it('keeps GitHub Models’ root paths on its newer endpoint and for every endpoint', async () => {
    expect(await target(49, 'https://models.github.ai/inference/')).toBe(
      'https://models.github.ai/inference/chat/completions',
    );
    expect(await target(49, 'https://models.github.ai/inference', '/v1/embeddings')).toBe(
      'https://models.github.ai/inference/embeddings',
    );
    // The others keep /v1, once.
    expect(await target(8, 'https://proxy.example/v1/')).toBe('https://proxy.example/v1/chat/completions');
    expect(upstreamUrl('https://api.anthropic.com', '/v1/messages')).toBe('https://api.anthropic.com/v1/messages');
  });

  it('addresses vendors whose paths are not under /v1', async () => {
    // A base URL already ending in the vendor's prefix is not given a second one.
    expect(await target(providerType('zhipu'), 'https://open.bigmodel.cn/api/paas/v4/', '/v1/embeddings')).toBe(
      'https://open.bigmodel.cn/api/paas/v4/embeddings',
    );
    expect(await target(providerType('ali'), 'https://dashscope.aliyuncs.com', '/v1/embeddings')).toBe(
      'https://dashscope.aliyuncs.com/compatible-mode/v1/embeddings',
    );
    // Databricks: OpenAI's paths under /serving-endpoints, the serving endpoint named as the model.
    expect(await target(providerType('azure-databricks'), 'https://adb-1.azuredatabricks.net')).toBe(
      'https://adb-1.azuredatabricks.net/serving-endpoints/chat/completions',
    );
    // Baidu's v2 API.
    expect(await target(providerType('baidu'), 'https://qianfan.baidubce.com', '/v1/embeddings')).toBe(
      'https://qianfan.baidubce.com/v2/embeddings',
    );
    // Spark's x1 is served under /v2, its other models under /v1, whatever the base URL ends in.
    const spark = providerType('xunfei');
    expect(await target(spark, 'https://spark-api-open.xf-yun.com/v1', '/v1/chat/completions', 'x1')).toBe(
      'https://spark-api-open.xf-yun.com/v2/chat/completions',
    );
    expect(await target(spark, 'https://spark-api-open.xf-yun.com/v2', '/v1/chat/completions', 'lite')).toBe(
      'https://spark-api-open.xf-yun.com/v1/chat/completions',
    );
  });

  it('keeps the synchronous target for layouts without tokens, and refuses it for token layouts', () => {
    expect(
      openAiTarget(
        { type: providerType('azure'), key: 'az', other: '' },
        'https://r.openai.azure.com',
        '/v1/embeddings',
        'e',
      ),
    ).toEqual({
      url: 'https://r.openai.azure.com/openai/deployments/e/embeddings?api-version=2024-10-21',
      headers: { 'api-key': 'az' },
    });
    expect(() =>
      openAiTarget(
        { type: providerType('zhipu'), key: 'id.secret', other: '' },
        'https://z',
        '/v1/chat/completions',
        'glm-4',
      ),
    ).toThrow(/token/);
  });
});

describe('vendor authentication', () => {
  it('signs a Zhipu HS256 JWT with the key’s secret, naming its id, in milliseconds, and reuses it', async () => {
    let now = 1_700_000_000_000;
    const tokens = new ZhipuTokens(() => now);
    const token = await tokens.bearer('my-id.my-secret');
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode('my-secret'), {
      currentDate: new Date(now),
      // `exp` is in milliseconds, which jose would read as seconds far in the future: checked below.
    });
    expect(payload).toMatchObject({ api_key: 'my-id', timestamp: now });
    expect(Number(payload.exp)).toBeGreaterThan(now);
    await expect(jwtVerify(token, new TextEncoder().encode('another-secret'))).rejects.toThrow();
    // The same token while it has time left; a new one near its end.
    now += 60_000;
    expect(await tokens.bearer('my-id.my-secret')).toBe(token);
    now = Number(payload.exp) - 60_000;
    expect(await tokens.bearer('my-id.my-secret')).not.toBe(token);
    // A key that is not `id.secret` is sent as it is.
    expect(await tokens.bearer('plain-key')).toBe('plain-key');
  });

  it('sends the Zhipu token, never the key, as the bearer', async () => {
    const channel = { type: providerType('zhipu'), key: 'kid.ksecret', other: '' };
    const resolved = await resolveOpenAiTarget(channel, 'https://open.bigmodel.cn', '/v1/chat/completions', 'glm-4');
    const token = resolved?.headers.authorization?.replace(/^Bearer /, '') ?? '';
    expect(token).not.toContain('ksecret');
    const { payload } = await jwtVerify(token, new TextEncoder().encode('ksecret'));
    expect(payload.api_key).toBe('kid');
  });

  it('maps Spark keys and model names to the HTTP API’s', () => {
    expect(sparkBearer('appid|the-secret|the-key')).toBe('the-key:the-secret');
    expect(sparkBearer('the-api-password')).toBe('the-api-password');
    expect(sparkBearer('k:s')).toBe('k:s');
    expect(sparkModel('SparkDesk-v3.5', '')).toBe('generalv3.5');
    expect(sparkModel('SparkDesk-v4.0', '')).toBe('4.0Ultra');
    expect(sparkModel('SparkDesk-v1.1', '')).toBe('lite');
    // Plain SparkDesk takes the channel's version.
    expect(sparkModel('SparkDesk', 'v3.1')).toBe('generalv3');
    expect(sparkModel('generalv3.5', 'v1.1')).toBe('generalv3.5');
    expect(sparkModel('x1', '')).toBe('x1');
  });

  it('adds the X-DashScope-Plugin header from the channel’s other field', async () => {
    const channel = { type: providerType('ali'), key: 'sk-ali', other: '{"pdf_extracter":{}}' };
    const resolved = await resolveOpenAiTarget(channel, 'https://d', '/v1/chat/completions', 'qwen-plus');
    expect(resolved?.headers).toEqual({ authorization: 'Bearer sk-ali', 'x-dashscope-plugin': '{"pdf_extracter":{}}' });
  });
});

describe('plugin settings in outgoing bodies', () => {
  const sentBody = async (channel: RouterChannel, fields: Record<string, unknown>, path = '/v1/chat/completions') => {
    const prepared = await prepareOpenAiRequest(channel, 'https://up.example', path, fields, 'm');
    return prepared ? JSON.parse(prepared.body) : undefined;
  };

  it('adds Zhipu’s knowledge-base and web-search tools to chats, after the client’s own', async () => {
    const channel = channelOf('zhipu', {
      plugin: {
        retrieval: { knowledge_id: 'kb-1', prompt_template: 'Use {{knowledge}}' },
        web_search: { enable: true },
      },
    });
    const tool = { type: 'function', function: { name: 'f' } };
    const body = await sentBody(channel, { ...HELLO, tools: [tool] });
    expect(body.tools).toEqual([
      tool,
      { type: 'retrieval', retrieval: { knowledge_id: 'kb-1', prompt_template: 'Use {{knowledge}}' } },
      { type: 'web_search', web_search: { enable: true } },
    ]);
    // Not on embeddings.
    expect((await sentBody(channel, { input: 'x' }, '/v1/embeddings')).tools).toBeUndefined();
    // A client's own web_search tool is kept rather than doubled.
    const own = { type: 'web_search', web_search: { enable: false } };
    const body2 = await sentBody(channel, { ...HELLO, tools: [own] });
    expect(body2.tools.filter((t: { type: string }) => t.type === 'web_search')).toEqual([own]);
  });

  it('turns on DashScope web search from the plugin unless the client says', async () => {
    const channel = channelOf('ali', { plugin: { enable_search: true, search_options: { forced_search: true } } });
    expect(await sentBody(channel, HELLO)).toMatchObject({
      enable_search: true,
      search_options: { forced_search: true },
    });
    expect(await sentBody(channel, { ...HELLO, enable_search: false })).toMatchObject({ enable_search: false });
  });

  it('sends the OpenRouter routing preference unless the client gave one', async () => {
    const provider = { order: ['anthropic'], allow_fallbacks: false };
    const channel = channelOf('openrouter', { plugin: { other: { provider } } });
    expect((await sentBody(channel, HELLO)).provider).toEqual(provider);
    expect((await sentBody(channel, { ...HELLO, provider: { order: ['x'] } })).provider).toEqual({ order: ['x'] });
  });

  it('sends a custom channel’s relay modes to its paths, and serves no disabled mode', async () => {
    const channel = channelOf('custom', {
      plugin: { customize: { 1: '/api/chat', 3: 'disable' } },
    });
    const chat = await prepareOpenAiRequest(channel, 'https://c.example/', '/v1/chat/completions', HELLO, 'm');
    expect(chat?.url).toBe('https://c.example/api/chat');
    expect(await prepareOpenAiRequest(channel, 'https://c.example', '/v1/embeddings', { input: 'x' }, 'm')).toBe(
      undefined,
    );
    const other = await prepareOpenAiRequest(channel, 'https://c.example', '/v1/moderations', { input: 'x' }, 'm');
    expect(other?.url).toBe('https://c.example/v1/moderations');
  });

  it('sends Spark the HTTP model name, billing the requested one', async () => {
    const channel = channelOf('xunfei', { key: 'app|sec|key', other: 'v4.0' });
    const prepared = await prepareOpenAiRequest(channel, 'https://s', '/v1/chat/completions', HELLO, 'SparkDesk');
    expect(JSON.parse(prepared?.body ?? '{}').model).toBe('4.0Ultra');
    expect(prepared?.headers.authorization).toBe('Bearer key:sec');
    expect(prepared?.billedModel).toBe('SparkDesk');
  });

  it('asks for stream usage, except from vendors that always send it and do not document the option', async () => {
    const stream = { ...HELLO, stream: true };
    expect((await sentBody(channelOf('ali'), stream)).stream_options).toEqual({ include_usage: true });
    expect((await sentBody(channelOf('zhipu'), stream)).stream_options).toBeUndefined();
    expect((await sentBody(channelOf('xunfei'), stream)).stream_options).toBeUndefined();
  });
});

describe('the copies made for the upstream, as spreads made them', () => {
  it('sends a client’s "__proto__" key as its own field, in its place, never as the prototype', async () => {
    const text =
      '{"messages":[],"__proto__":{"admin":true},"model":"m","stream":true,"stream_options":{"__proto__":{"x":1}}}';
    const client = JSON.parse(text) as Record<string, unknown>;
    const channel = channelOf('openai', { model_mapping: { m: 'upstream-m' } });
    const prepared = await prepareOpenAiRequest(channel, 'https://up.example', '/v1/chat/completions', client, 'm');
    const options = client.stream_options as object;
    const spread = { ...client, model: 'upstream-m', stream_options: { ...options, include_usage: true } };
    expect(prepared?.body).toBe(JSON.stringify(spread));
    expect(prepared?.body).toBe(
      '{"messages":[],"__proto__":{"admin":true},"model":"upstream-m","stream":true,"stream_options":{"__proto__":{"x":1},"include_usage":true}}',
    );
  });

  it('orders and overrides headers as the spreads did, a "__proto__" key kept as a header', () => {
    const base = JSON.parse('{"X-Team":"blue","content-type":"text/plain","__proto__":"p"}') as Record<string, string>;
    const target = { authorization: 'Bearer k', 'X-Team': 'red' };
    const headers = callHeaders(base, 'application/json', target);
    const spread = { ...base, 'content-type': 'application/json', ...target };
    expect(Object.entries(headers)).toEqual(Object.entries(spread));
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect(callHeaders(undefined, 'application/json', target)).toEqual({
      'content-type': 'application/json',
      ...target,
    });
  });
});
