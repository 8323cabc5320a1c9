import { isRecord } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { scanChatChunk } from './chat-chunk-scan.js';
import { endpoints } from './openai.js';

/**
 * The scan must answer, for every event it reads, what the parsing path reads: the same text, and
 * only for an event that JSON.parse accepts and that reports no usage. These compare both paths.
 */

const format = endpoints.find((endpoint) => endpoint.path === '/v1/chat/completions')?.stream;
if (!format) throw new Error('the chat endpoint streams');

/** What the parsing path reads: undefined when the event is not JSON (nothing counted). */
function parsed(data: string): { text: string; usage: boolean } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isRecord(body) || !format) return undefined;
  return { text: format.textOf(body), usage: format.usageOf(body) !== undefined };
}

/** Checks the scan against the parse; answers whether the scan read the event itself. */
function agrees(data: string): boolean {
  const scanned = scanChatChunk(data);
  const reference = parsed(data);
  if (scanned === undefined) return false;
  expect(reference, data).toBeDefined();
  expect(reference?.usage, data).toBe(false);
  expect(scanned, data).toBe(reference?.text);
  return true;
}

const chunk = (delta: string, extra = '') =>
  `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","system_fingerprint":"fp_1",` +
  `"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":null}]${extra}}`;

describe('scanChatChunk', () => {
  it('reads the common chunks itself, with the text the parse reads', () => {
    const common = [
      chunk('{"role":"assistant","content":""}'),
      chunk('{"content":"Hello"}'),
      chunk('{"content":"héllo wörld ✓ 漢字"}'),
      chunk('{"content":"emoji 😀 and a pair 𝄞"}'),
      chunk('{"content":"lone \ud800 surrogate"}'),
      chunk('{"content":null}'),
      chunk('{}'),
      chunk('{"content":"x","role":"assistant"}'),
      chunk('{"content":"x"}', ',"usage":null'),
      '{"usage":null,"choices":[{"delta":{"content":"u"}}],"usage":null}',
      '{"id":"c","choices":[],"usage":null}',
      '{"id":"c","choices":[]}',
      '{"choices":[{"delta":{"content":"n"}}],"created":-1.5e+10,"a":0,"b":1E3,"c":-0.25,"d":true,"e":false,"f":null}',
      '{"__proto__":null,"choices":[{"delta":{"content":"p"}}]}',
    ];
    for (const data of common) expect(agrees(data), data).toBe(true);
  });

  it('reads other shapes as the parse does, or leaves them to it', () => {
    const others = [
      chunk('{"reasoning_content":"think","content":"say"}'),
      chunk('{"content":"a","refusal":"no","reasoning_content":"r"}'),
      chunk('{"refusal":"I cannot"}'),
      chunk('{"content":"x","tool_calls":null}'),
      chunk('{"content":123}'),
      chunk('{"content":{"nested":[1,2,{"a":true}]}}'),
      '{"id":"c"}',
      '{}',
      '  { "choices" : [ { "delta" : { "content" : "spaced" } } ] }  ',
      '{"choices":[{"text":"legacy completion","index":0,"logprobs":null,"finish_reason":null}]}',
      '{"choices":[{"text":"t","delta":{"content":"c"}}]}',
      '{"choices":[{"text":5,"delta":{"content":"c"}}]}',
      '{"choices":[{"delta":{"content":"one"}},{"delta":{"content":"two"}},{"index":2}]}',
      '{"choices":[{"delta":{"content":"n"}}],"x":[0,1E3,-0.25,true,false,null,{},[]]}',
      '{"__proto__":{"usage":{"prompt_tokens":1}},"choices":[{"delta":{"content":"p"}}]}',
      '{"choices":[{"delta":{"content":"x"}}],"choices":[]}',
    ];
    for (const data of others) agrees(data);
  });

  it('leaves to the parse every event that may report usage or carries tool calls', () => {
    const parsedInstead = [
      chunk('{"content":"x"}', ',"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}'),
      '{"id":"c","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":100}}',
      '{"choices":[],"usage":{"prompt_tokens":0,"completion_tokens":0}}',
      '{"choices":[],"usage":5}',
      chunk('{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]}'),
      chunk('{"tool_calls":[]}'),
      '{"choices":[{"message":{"content":"whole"}}]}',
      '{"choices":[{"delta":null,"message":{"content":"whole"}}]}',
      '{"choices":[{"delta":"text"}]}',
      '{"choices":["not an object"]}',
      '{"choices":null}',
      '{"choices":{"0":{"delta":{"content":"x"}}}}',
    ];
    for (const data of parsedInstead) {
      expect(scanChatChunk(data), data).toBeUndefined();
      // The parse still reads them: usage where there is some, tool calls as text.
      expect(parsed(data), data).toBeDefined();
    }
  });

  it('leaves escapes, control characters and keys given twice to the parse', () => {
    const parsedInstead = [
      chunk('{"content":"line\\nbreak"}'),
      chunk('{"content":"quote \\" inside"}'),
      chunk('{"content":"\\u00e9"}'),
      chunk('{"content":"\\ud83d\\ude00"}'),
      '{"choices":[{"delta":{"content":"x"}}],"\\u0075sage":{"prompt_tokens":1,"completion_tokens":1}}',
      '{\n"choices":[{"delta":{"content":"x"}}]}',
      '{"choices":[{"delta":{"content":"tab\there"}}]}',
      '{"choices":[{"delta":{"content":"a","content":"b"}}]}',
      '{"choices":[{"delta":{"content":"a"},"delta":{"content":"b"}}]}',
      '{"choices":[{"text":"a","text":"b"}]}',
      '{"choices":[],"choices":[{"delta":{"content":"b"}}]}',
      '{"usage":null,"usage":{"prompt_tokens":1,"completion_tokens":1}}',
    ];
    for (const data of parsedInstead) expect(scanChatChunk(data), data).toBeUndefined();
  });

  it('never reads what JSON.parse refuses', () => {
    const broken = [
      '',
      '[DONE]',
      '[{"choices":[]}]',
      '"text"',
      '{"choices":[{"delta":{"content":"x"}}]',
      '{"choices":[{"delta":{"content":"x"}}]}}',
      '{"choices":[{"delta":{"content":"x"}}]} trailing',
      '{"choices":[{"delta":{"content":"x}}]}',
      '{"choices":[{"delta":{"content":"x"}},]}',
      '{"choices":[{"delta":{"content":"x"},}]}',
      '{"a":01,"choices":[]}',
      '{"a":1.,"choices":[]}',
      '{"a":.5,"choices":[]}',
      '{"a":1e,"choices":[]}',
      '{"a":-,"choices":[]}',
      '{"a":+1,"choices":[]}',
      '{"a":tru,"choices":[]}',
      '{"a":nul}',
      '{"a":undefined}',
      "{'a':1}",
      '{"a" 1}',
      '{"a":1 "b":2}',
      '{a:1}',
      `{"a":${'['.repeat(100)}${']'.repeat(100)},"choices":[]}`,
      '\u00a0{}',
    ];
    for (const data of broken) {
      if (scanChatChunk(data) !== undefined) expect(parsed(data), data).toBeDefined();
      agrees(data);
    }
    expect(scanChatChunk('{"choices":[{"delta":{"content":"x"}}]')).toBeUndefined();
  });

  it('agrees with the parse on every cut of real chunks (events split across reads are joined first)', () => {
    const samples = [
      chunk('{"content":"Hello, wörld 😀"}'),
      chunk('{"content":"x"}', ',"usage":null'),
      '{"choices":[{"text":"a","index":0},{"delta":{"reasoning_content":"b","refusal":"c"}}],"n":[1.5e3,-0,true]}',
    ];
    let read = 0;
    for (const data of samples) {
      for (let cut = 0; cut <= data.length; cut++) {
        // A prefix, and the chunk with a character taken out, are mostly not JSON.
        if (agrees(data.slice(0, cut))) read++;
        if (agrees(data.slice(0, cut) + data.slice(cut + 1))) read++;
      }
    }
    expect(read).toBeGreaterThan(0);
  });
});
