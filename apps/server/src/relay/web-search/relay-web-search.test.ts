import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import {
  SEARCH_PAGES,
  type SearchMock,
  startSearxngMock,
  startTavilyMock,
} from '../../../test/mocks/search-upstreams.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

/**
 * `#search` through the OpenAI SDK: the query model (gpt-4o-mini, on the harness's mock channel)
 * writes the query, a stand-in SearXNG or Tavily answers it, and the base model's channel gets the
 * last user message rewritten with the numbered results. Both calls are billed, each with its row.
 */
const QUESTION = 'What is the weather in Paris?';
const QUERY = 'Paris weather today';
const ANSWER = 'It is sunny [1](https://weather.example/paris).';
const messages = [{ role: 'user' as const, content: QUESTION }];
const TAVILY_KEY = 'tvly-test-key';

type Row = { model_name: string; quota: number; request_id: string };

/** The consume rows written after row `afterId`, oldest first. */
async function rowsAfter(r: RelayTestContext, afterId: number): Promise<Row[]> {
  await r.t.app.relay.flush();
  return r.t.database.db
    .selectFrom('logs')
    .select(['model_name', 'quota', 'request_id'])
    .where('type', '=', 2)
    .where('id', '>', afterId)
    .orderBy('id', 'asc')
    .execute() as Promise<Row[]>;
}

async function lastLogId(r: RelayTestContext): Promise<number> {
  await r.t.app.relay.flush();
  const row = await r.t.database.db.selectFrom('logs').select('id').orderBy('id', 'desc').executeTakeFirst();
  return Number(row?.id ?? 0);
}

const lastContent = (mock: MockUpstream): unknown => {
  const sent = mock.received.at(-1)?.body.messages as Array<{ content: unknown }>;
  return sent.at(-1)?.content;
};

/** A relay whose `gpt-4o` channel is `answerer` and whose searchers are configured by `env`. */
async function startSearchRelay(answerer: MockUpstream, env: Record<string, string>) {
  const r = await startRelayTest({ env });
  r.upstream.behaviour.reply = QUERY;
  await r.addChannel({ name: 'answerer', base_url: answerer.url, key: 'sk-answerer', models: 'gpt-4o' });
  await r.setPrice('gpt-4o', 2.5, 10);
  return r;
}

describe('#search with SearXNG', () => {
  let r: RelayTestContext;
  let searxng: SearchMock;
  let answerer: MockUpstream;
  /** What one plain call of each model costs (the mocks report fixed usage). */
  const plainCost = { query: 0, answer: 0 };

  const searchAndCount = async (run: () => Promise<void>) => {
    const fromId = await lastLogId(r);
    const before = await storedQuota(r);
    await run();
    const rows = await rowsAfter(r, fromId);
    return { rows, spent: before - (await storedQuota(r)) };
  };

  beforeAll(async () => {
    searxng = await startSearxngMock();
    answerer = await startMockUpstream({
      reply: ANSWER,
      apiKey: 'sk-answerer',
      usage: { prompt_tokens: 300, completion_tokens: 40 },
    });
    // No `format` in the template: the relay adds format=json.
    r = await startSearchRelay(answerer, { SEARCH_SEARXNG_URL: `${searxng.url}/search?q={query}&language=auto` });
    for (const [model, field] of [
      ['gpt-4o-mini', 'query'],
      ['gpt-4o', 'answer'],
    ] as const) {
      const { rows } = await searchAndCount(async () => {
        await r.client.chat.completions.create({ model, messages });
      });
      plainCost[field] = rows[0]?.quota ?? 0;
    }
  });
  afterAll(async () => {
    await r?.close();
    await searxng?.close();
    await answerer?.close();
  });
  beforeEach(() => {
    searxng.reset();
    r.upstream.behaviour.reply = QUERY;
  });

  it('answers from the rewritten message and bills the query call and the answer, each with its row', async () => {
    const queryCalls = r.upstream.received.length;
    let answer: OpenAI.ChatCompletion | undefined;
    let response: Response | undefined;
    const { rows, spent } = await searchAndCount(async () => {
      const answered = await r.client.chat.completions.create({ model: 'gpt-4o#search', messages }).withResponse();
      answer = answered.data;
      response = answered.response;
    });
    const header = response?.headers.get('x-web-search-results');
    expect(answer?.choices[0]?.message.content).toBe(ANSWER);
    expect(answer?.model).toBe('gpt-4o');
    expect(header).toBe('2');

    // The query model read the question and was asked for a query alone.
    expect(r.upstream.received.length).toBe(queryCalls + 1);
    const queryBody = r.upstream.received.at(-1)?.body as { model: string; stream?: boolean; messages: unknown[] };
    expect(queryBody.model).toBe('gpt-4o-mini');
    expect(queryBody.stream).not.toBe(true);
    expect(queryBody.messages[1]).toEqual({ role: 'user', content: `user: ${QUESTION}` });
    expect(JSON.stringify(queryBody.messages[0])).toContain('NONE');

    // SearXNG got the query, encoded, with the JSON format.
    expect(searxng.received.map((request) => request.url)).toEqual([
      '/search?q=Paris%20weather%20today&language=auto&format=json',
    ]);

    // The base model got the numbered results, then the question.
    const sent = answerer.received.at(-1)?.body as { model: string };
    expect(sent.model).toBe('gpt-4o');
    const content = String(lastContent(answerer));
    expect(content).toContain('[1] Paris weather\nURL: https://weather.example/paris\nSunny, 24 °C in Paris today.');
    expect(content).toContain('[2] Météo Paris\nURL: https://meteo.example/paris\nCiel dégagé sur Paris.');
    expect(content.endsWith(`The message:\n${QUESTION}`)).toBe(true);

    expect(rows.map((row) => [row.model_name, row.quota])).toEqual([
      ['gpt-4o-mini', plainCost.query],
      ['gpt-4o', plainCost.answer],
    ]);
    expect(rows[0]?.request_id).toBe(response?.headers.get('x-request-id'));
    expect(rows[1]?.request_id).toBe(rows[0]?.request_id);
    expect(plainCost.query).toBeGreaterThan(0);
    expect(plainCost.answer).toBeGreaterThan(plainCost.query);
    expect(spent).toBe(plainCost.query + plainCost.answer);
  });

  it('streams the answer, billed the same way', async () => {
    let text = '';
    const { rows, spent } = await searchAndCount(async () => {
      const stream = await r.client.chat.completions.create({ model: 'gpt-4o#search', messages, stream: true });
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    });
    expect(text).toBe(ANSWER);
    expect(answerer.received.at(-1)?.body.stream).toBe(true);
    expect(String(lastContent(answerer))).toContain('[2] Météo Paris');
    expect(rows.map((row) => row.model_name)).toEqual(['gpt-4o-mini', 'gpt-4o']);
    expect(spent).toBe(plainCost.query + plainCost.answer);
  });

  it('keeps the image parts of a message and puts the results in its text', async () => {
    const image = { type: 'image_url' as const, image_url: { url: 'https://img.example/paris.png' } };
    await r.client.chat.completions.create({
      model: 'gpt-4o#search',
      messages: [{ role: 'user', content: [{ type: 'text', text: QUESTION }, image] }],
    });
    const content = lastContent(answerer) as Array<{ type: string; text?: string }>;
    expect(content).toHaveLength(2);
    expect(content[0]?.text).toContain('[1] Paris weather');
    expect(content[1]).toEqual(image);
  });

  it('answers without results when the search fails, still billing the query call', async () => {
    searxng.behaviour.failWith = 500;
    let header: string | null = null;
    const { rows, spent } = await searchAndCount(async () => {
      const { response } = await r.client.chat.completions.create({ model: 'gpt-4o#search', messages }).withResponse();
      header = response.headers.get('x-web-search-results');
    });
    expect(searxng.received).toHaveLength(1);
    expect(header).toBe('0');
    expect(lastContent(answerer)).toBe(QUESTION);
    expect(rows.map((row) => row.model_name)).toEqual(['gpt-4o-mini', 'gpt-4o']);
    expect(spent).toBe(plainCost.query + plainCost.answer);
  });

  it('does not search when the query model answers NONE', async () => {
    r.upstream.behaviour.reply = 'NONE';
    const { rows } = await searchAndCount(async () => {
      await r.client.chat.completions.create({ model: 'gpt-4o#search', messages: [{ role: 'user', content: 'Hi!' }] });
    });
    expect(searxng.received).toHaveLength(0);
    expect(lastContent(answerer)).toBe('Hi!');
    expect(rows.map((row) => row.model_name)).toEqual(['gpt-4o-mini', 'gpt-4o']);
  });

  it('skips the query call for a key that may not call the query model', async () => {
    const user = await r.t.createUser('limited');
    const limits = { limit_model_setting: { enabled: true, models: ['gpt-4o'] } };
    await r.admin('POST', `/api/user/quota/${user.id}`, { quota: 1_000_000 });
    const key = await r.newKey(user.cookie, { name: 'gpt-4o only', setting: { limits } });
    const client = new OpenAI({ apiKey: key, baseURL: r.baseURL, maxRetries: 0 });
    const queryCalls = r.upstream.received.length;
    const answer = await client.chat.completions.create({ model: 'gpt-4o#search', messages });
    expect(answer.choices[0]?.message.content).toBe(ANSWER);
    expect(r.upstream.received.length).toBe(queryCalls);
    expect(searxng.received).toHaveLength(0);
    expect(lastContent(answerer)).toBe(QUESTION);
  });
});

describe('#search with Tavily', () => {
  let r: RelayTestContext;
  let searxng: SearchMock;
  let tavily: SearchMock;
  let answerer: MockUpstream;

  beforeAll(async () => {
    searxng = await startSearxngMock();
    tavily = await startTavilyMock(TAVILY_KEY);
    answerer = await startMockUpstream({ reply: ANSWER, apiKey: 'sk-answerer' });
    r = await startSearchRelay(answerer, {
      SEARCH_SEARXNG_URL: `${searxng.url}/search?q={query}&format=json`,
      SEARCH_TAVILY_KEY: TAVILY_KEY,
      SEARCH_TAVILY_API_BASE: tavily.url,
    });
  });
  afterAll(async () => {
    await r?.close();
    await searxng?.close();
    await tavily?.close();
    await answerer?.close();
  });

  it('asks Tavily with the bearer key when SearXNG fails, and cites what Tavily found', async () => {
    searxng.behaviour.failWith = 502;
    tavily.behaviour.pages = [SEARCH_PAGES[1] as (typeof SEARCH_PAGES)[number]];
    const answer = await r.client.chat.completions.create({ model: 'gpt-4o#search', messages });
    expect(answer.choices[0]?.message.content).toBe(ANSWER);
    expect(searxng.received).toHaveLength(1);
    expect(tavily.received).toEqual([
      {
        method: 'POST',
        url: '/search',
        authorization: `Bearer ${TAVILY_KEY}`,
        body: { query: QUERY, max_results: 8 },
      },
    ]);
    const content = String(lastContent(answerer));
    expect(content).toContain('[1] Météo Paris\nURL: https://meteo.example/paris');
    expect(content).not.toContain('[2]');
  });

  it('asks SearXNG first and Tavily only when it fails', async () => {
    searxng.reset();
    tavily.reset();
    await r.client.chat.completions.create({ model: 'gpt-4o#search', messages });
    // The URL chose its format: none is added.
    expect(searxng.received.map((request) => request.url)).toEqual(['/search?q=Paris%20weather%20today&format=json']);
    expect(tavily.received).toHaveLength(0);
    expect(String(lastContent(answerer))).toContain('[2] Météo Paris');
  });
});

describe('#search without a searcher', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest();
  });
  afterAll(async () => {
    await r?.close();
  });

  it('is refused with a 400 naming the model, before any upstream is called', async () => {
    const calls = r.upstream.received.length;
    const refused = r.client.chat.completions.create({ model: 'gpt-4o-mini#search', messages });
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'web_search_not_configured', param: 'model' });
    await expect(refused).rejects.toThrow(
      /gpt-4o-mini#search asks for web search \(#search\), which is not configured/,
    );
    expect(r.upstream.received.length).toBe(calls);
  });
});
