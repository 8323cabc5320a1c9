import { describe, expect, it } from 'vitest';
import { context, fixture, fixtureJson } from '../../../../test/providers/cohere/test-support.js';
import type { Json } from '../types.js';
import { cohereAdapter } from './adapter.js';
import { cohereEmbeddings, float32Base64, parseEmbedAnswer } from './embed.js';

const embed = cohereAdapter.endpoints?.['/v1/embeddings'];
if (!embed) throw new Error('the Cohere adapter serves no /v1/embeddings');
const embedContext = () => context({ upstreamModel: 'embed-v4.0' });

async function build(body: Json) {
  const call = await embed?.build({ model: 'embed-v4.0', ...body }, embedContext());
  if (!call) throw new Error('no call');
  return { ...call, json: JSON.parse(String(call.body)) as Json };
}

/** What the `openai` SDK does with a base64 embedding. */
function decodeFloat32(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const copy = new Uint8Array(bytes).buffer;
  return Array.from(new Float32Array(copy));
}

describe('Cohere embeddings: the request', () => {
  it('posts the documented Embed v2 body to /v2/embed with the bearer key', async () => {
    const call = await build({ input: ['hello', 'goodbye'], encoding_format: 'float' });
    expect(call.url).toBe('https://api.cohere.com/v2/embed');
    expect(call.headers.authorization).toBe('Bearer co-test-key-0123456789');
    expect(call.json).toEqual(fixtureJson('embed-request.json'));
  });

  it("sends one string as one text, keeps the client's input_type and truncate, maps dimensions", async () => {
    const { json } = await build({ input: 'query text', input_type: 'search_query', dimensions: 512, truncate: 'END' });
    expect(json).toEqual({
      model: 'embed-v4.0',
      texts: ['query text'],
      input_type: 'search_query',
      embedding_types: ['float'],
      output_dimension: 512,
      truncate: 'END',
    });
    expect(json).not.toHaveProperty('encoding_format');
  });

  it('names what it cannot send', async () => {
    await expect(build({ input: [1, 2, 3] })).rejects.toThrow(/^input\[0\]: Cohere embeds text/);
    await expect(build({ input: [[1, 2]] })).rejects.toThrow(/^input\[0\]: Cohere embeds text/);
    await expect(build({ input: [] })).rejects.toThrow(/^input: /);
    await expect(build({ input: ['a', { text: 'b' }] })).rejects.toThrow(/^input\[1\]: a string is required/);
    await expect(build({ input: 'a', encoding_format: 'int8' })).rejects.toThrow(/^encoding_format: /);
    await expect(build({ input: 'a', dimensions: 0 })).rejects.toThrow(/^dimensions: /);
    await expect(build({ input: 'a', input_type: 3 })).rejects.toThrow(/^input_type: /);
  });
});

describe('Cohere embeddings: the answer', () => {
  it('answers OpenAI floats with the billed input tokens as usage', () => {
    const answer = parseEmbedAnswer(fixture('embed-response.json'), embedContext(), 'float');
    const floats = (fixtureJson('embed-response.json').embeddings as { float: number[][] }).float;
    expect(answer).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: floats[0] },
        { object: 'embedding', index: 1, embedding: floats[1] },
      ],
      model: 'embed-v4.0',
      usage: { prompt_tokens: 2, total_tokens: 2 },
    });
  });

  it('answers base64 as little-endian float32 bytes, as OpenAI does', () => {
    const answer = parseEmbedAnswer(fixture('embed-response.json'), embedContext(), 'base64');
    const data = answer.data as Array<{ embedding: string }>;
    const floats = (fixtureJson('embed-response.json').embeddings as { float: number[][] }).float;
    expect(typeof data[0]?.embedding).toBe('string');
    expect(decodeFloat32(data[0]?.embedding ?? '')).toEqual(floats[0]?.map(Math.fround));
    // Exactly representable values come back exactly, float32's largest included.
    expect(decodeFloat32(data[1]?.embedding ?? '')).toEqual([0.5, -0.25, 0.125, -1, 0, 3.4028234663852886e38]);
    // Byte order: 1.0 is 00 00 80 3f in little-endian.
    expect(Buffer.from(float32Base64([1]), 'base64')).toEqual(Buffer.from([0x00, 0x00, 0x80, 0x3f]));
  });

  it('remembers the encoding the client asked for between build and parse of one exchange', async () => {
    const one = embedContext();
    await cohereEmbeddings.build({ model: 'embed-v4.0', input: 'x', encoding_format: 'base64' }, one);
    const other = embedContext();
    await cohereEmbeddings.build({ model: 'embed-v4.0', input: 'x' }, other);
    const encoded = cohereEmbeddings.parse(fixture('embed-response.json'), one);
    const plain = cohereEmbeddings.parse(fixture('embed-response.json'), other);
    expect(typeof (encoded.data as Json[])[0]?.embedding).toBe('string');
    expect(Array.isArray((plain.data as Json[])[0]?.embedding)).toBe(true);
  });

  it('leaves usage out when Cohere reports none, and falls back to meta.tokens', () => {
    const body = (meta: Json) =>
      Buffer.from(JSON.stringify({ id: 'e', embeddings: { float: [[0.1]] }, texts: ['a'], meta }));
    expect(parseEmbedAnswer(body({}), embedContext(), 'float')).not.toHaveProperty('usage');
    expect(parseEmbedAnswer(body({ tokens: { input_tokens: 4 } }), embedContext(), 'float').usage).toEqual({
      prompt_tokens: 4,
      total_tokens: 4,
    });
  });

  it('names a malformed answer', () => {
    const read = (text: string) => () => parseEmbedAnswer(Buffer.from(text), embedContext(), 'float');
    expect(read('nope')).toThrow("the upstream's answer is not JSON");
    expect(read('{"id":"e","embeddings":{"int8":[[1]]}}')).toThrow('no embeddings.float list');
    expect(read('{"embeddings":{"float":[["a"]]}}')).toThrow(
      "the upstream's embeddings.float[0] is not a list of numbers",
    );
    expect(read('{"message":"invalid api token"}')).toThrow('invalid api token');
  });
});
