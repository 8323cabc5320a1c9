import { describe, expect, it } from 'vitest';
import { context, fixture, fixtureJson } from '../../../../test/providers/cohere/test-support.js';
import { countRerankTokens } from '../../billing/metering.js';
import type { Json } from '../types.js';
import { parseRerankAnswer, cohereRerank as rerank, rerankRequestOf } from './rerank.js';

const rerankContext = () => context({ upstreamModel: 'rerank-v3.5' });
const documented = fixtureJson('rerank-request.json');
const documents = documented.documents as string[];

describe('Cohere rerank: the request', () => {
  it('posts the documented Rerank v2 body, documents given as objects turned into strings', async () => {
    const call = await rerank.build(
      {
        model: 'rerank-v3.5',
        query: documented.query,
        documents: documents.map((text, index) => (index % 2 === 0 ? text : { text })),
        top_n: 3,
        return_documents: true,
        rank_fields: ['text'],
      },
      rerankContext(),
    );
    expect(call.url).toBe('https://api.cohere.com/v2/rerank');
    expect(call.headers.authorization).toBe('Bearer co-test-key-0123456789');
    expect(JSON.parse(String(call.body))).toEqual(documented);
  });

  it('keeps max_tokens_per_doc and names bad fields', async () => {
    const build = async (body: Json) =>
      rerank.build({ model: 'rerank-v3.5', query: 'q', documents: ['a'], ...body }, rerankContext());
    expect(JSON.parse(String((await build({ max_tokens_per_doc: 512 })).body)).max_tokens_per_doc).toBe(512);
    await expect(build({ query: '' })).rejects.toThrow(/^query: /);
    await expect(build({ documents: [] })).rejects.toThrow(/^documents: /);
    await expect(build({ documents: ['a', { title: 'no text' }] })).rejects.toThrow(/^documents\[1\]: /);
    await expect(build({ top_n: 0 })).rejects.toThrow(/^top_n: /);
    await expect(build({ return_documents: 'yes' })).rejects.toThrow(/^return_documents: /);
  });
});

describe('Cohere rerank: the answer', () => {
  it('keeps the results and meta, and bills the tokens the relay itself would count', () => {
    const request = rerankRequestOf(documented);
    const answer = parseRerankAnswer(fixture('rerank-response.json'), rerankContext(), request);
    const tokens = countRerankTokens(documented);
    expect(tokens).toBeGreaterThan(50);
    expect(answer).toEqual({
      id: '07734bd2-2473-4f07-94e1-0d9f0e6843cf',
      model: 'rerank-v3.5',
      results: [
        { index: 2, relevance_score: 0.999071 },
        { index: 4, relevance_score: 0.7867867 },
        { index: 0, relevance_score: 0.32713068 },
      ],
      usage: { prompt_tokens: tokens, total_tokens: tokens },
      meta: { api_version: { version: '2', is_experimental: false }, billed_units: { search_units: 1 } },
    });
  });

  it("uses Cohere's own token count when it gives one", () => {
    const body = Buffer.from(
      JSON.stringify({
        id: 'r',
        results: [{ index: 0, relevance_score: 0.5 }],
        meta: { tokens: { input_tokens: 42 } },
      }),
    );
    expect(parseRerankAnswer(body, rerankContext(), rerankRequestOf({ query: 'q', documents: ['a'] })).usage).toEqual({
      prompt_tokens: 42,
      total_tokens: 42,
    });
  });

  it('adds each document text when the client asked for return_documents', async () => {
    const exchange = rerankContext();
    await rerank.build({ ...documented, return_documents: true }, exchange);
    const answer = rerank.parse(fixture('rerank-response.json'), exchange);
    expect((answer.results as Json[]).map((result) => result.document)).toEqual([
      { text: documents[2] },
      { text: documents[4] },
      { text: documents[0] },
    ]);
    const plain = rerankContext();
    await rerank.build(documented, plain);
    expect((rerank.parse(fixture('rerank-response.json'), plain).results as Json[])[0]).not.toHaveProperty('document');
  });

  it('leaves usage to the relay when it cannot tell the request', () => {
    expect(rerank.parse(fixture('rerank-response.json'), rerankContext())).not.toHaveProperty('usage');
  });

  it('names a malformed answer', () => {
    const read = (text: string) => () => parseRerankAnswer(Buffer.from(text), rerankContext());
    expect(read('<html>')).toThrow("the upstream's answer is not JSON");
    expect(read('{"id":"r"}')).toThrow("the upstream's answer has no results list");
    expect(read('{"results":[{"index":"0"}]}')).toThrow("the upstream's results[0] has no index and relevance_score");
    expect(read('{"message":"invalid api token"}')).toThrow('invalid api token');
  });
});
