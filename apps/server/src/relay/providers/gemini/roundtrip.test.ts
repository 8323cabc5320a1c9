import { describe, expect, it } from 'vitest';
import {
  context,
  decodeAll,
  fixture,
  fixtureJson,
  partAt,
  sseEvents,
} from '../../../../test/providers/gemini/test-support.js';
import type { ChatChunk, Json } from '../types.js';
import { geminiAdapter } from './adapter.js';
import { geminiSurface } from './surface.js';

/** Gemini request → canonical → Gemini request, through the surface and the adapter. */
function rebuild(body: Json, model = 'gemini-2.5-flash') {
  const request = geminiSurface.toChat(body, model);
  const call = geminiAdapter.buildChat(request, context({ upstreamModel: model }));
  if (call instanceof Promise) throw new Error('buildChat is synchronous');
  return { url: call.url, body: JSON.parse(String(call.body)) as Json };
}

const DEFAULT_SAFETY = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
].map((category) => ({ category, threshold: 'BLOCK_NONE' }));

describe('Gemini request → toChat → buildChat', () => {
  it('gives back the same multi-turn request with tools, images, signatures and thinking', () => {
    const original = fixtureJson('request-multi-turn-tools.json');
    const { url, body } = rebuild(original);
    expect(url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect(body).toEqual(original);
  });

  it('gives back structured output (the role made explicit, default safety added)', () => {
    const original = fixtureJson('request-structured-output.json');
    const { body } = rebuild(original);
    expect(body).toEqual({
      ...original,
      contents: [{ role: 'user', ...(original.contents as Json[])[0] }],
      safetySettings: DEFAULT_SAFETY,
    });
  });

  it('gives back built-in tools', () => {
    const original = fixtureJson('request-builtin-tools.json');
    expect(rebuild(original).body).toEqual({ ...original, safetySettings: DEFAULT_SAFETY });
  });

  it('gives back the snake_case example in camelCase', () => {
    const { body } = rebuild(fixtureJson('request-snake-case.json'));
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'You are a cat. Your name is Neko.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQ==' } },
            { text: 'Caption this image.' },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Gets the weather.',
              parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
      safetySettings: DEFAULT_SAFETY,
      generationConfig: { maxOutputTokens: 500, stopSequences: ['Title'], thinkingConfig: { thinking_budget: 0 } },
    });
  });

  it('without the in-memory extras (e.g. after a JSON copy) still gives an equivalent request', () => {
    const original = fixtureJson('request-multi-turn-tools.json');
    const request = JSON.parse(JSON.stringify(geminiSurface.toChat(original, 'gemini-3-pro-preview')));
    const call = geminiAdapter.buildChat(request, context({ upstreamModel: 'gemini-3-pro-preview' }));
    const body = JSON.parse(String((call as { body: string }).body)) as Json;
    const generation = body.generationConfig as Json;
    // The budget comes back through reasoning_effort (low = 1024), the safety settings as the default.
    expect(generation.thinkingConfig).toEqual({ thinkingBudget: 1024, includeThoughts: true });
    expect(body.safetySettings).toEqual(DEFAULT_SAFETY);
    const contents = body.contents as Json[];
    // The signature is gone: Gemini 3 gets Google's placeholder instead.
    expect(partAt(contents, 1, 0)?.thoughtSignature).toBe('skip_thought_signature_validator');
    // A fileData without an extension in its URI is guessed as image/jpeg, its declared type here.
    expect(partAt(contents, 4, 1)).toEqual(partAt(original.contents, 4, 1));
    expect(partAt(contents, 4, 1)).toHaveProperty('fileData');
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(body.tools).toEqual(original.tools);
  });
});

/** What a Gemini stream says, put together: thoughts, text, function calls, last finish reason and usage. */
function summarise(events: Json[]) {
  let thoughts = '';
  let text = '';
  const calls: Json[] = [];
  let finishReason: unknown;
  let usage: unknown;
  for (const event of events) {
    // The counts (modality breakdowns are not carried by the canonical usage).
    if (event.usageMetadata) {
      const counts = Object.entries(event.usageMetadata as Json).filter(([key]) => key.endsWith('Count'));
      usage = Object.fromEntries(counts);
    }
    for (const candidate of (event.candidates as Json[] | undefined) ?? []) {
      if (candidate.finishReason) finishReason = candidate.finishReason;
      for (const part of ((candidate.content as Json | undefined)?.parts as Json[] | undefined) ?? []) {
        if (part.functionCall) {
          const { name, args } = part.functionCall as Json;
          calls.push({ name, args, ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}) });
        } else if (part.thought) thoughts += String(part.text);
        else text += String(part.text ?? '');
      }
    }
  }
  return { thoughts, text, calls, finishReason, usage };
}

function reencode(name: string, pieceSize: number) {
  const chunks = decodeAll(geminiAdapter.decodeStream(context({ stream: true })), fixture(name), pieceSize);
  const encoder = geminiSurface.encodeStream('gemini-2.5-flash');
  let out = '';
  let usage: ChatChunk['usage'];
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    out += encoder.push(chunk);
  }
  out += encoder.end(usage ?? undefined);
  return { chunks, out };
}

describe('Gemini stream → decodeStream → encodeStream', () => {
  for (const name of ['stream-text.sse', 'stream-thinking-function-call.sse', 'stream-safety.sse']) {
    it(`keeps text, function calls, finish reason and usage of ${name}`, () => {
      const original = summarise(sseEvents(fixture(name).toString()));
      const { out } = reencode(name, 7);
      const events = sseEvents(out);
      const again = summarise(events);
      expect(again).toEqual(original);
      // finishReason and usageMetadata come on the last event only.
      const last = events[events.length - 1];
      expect(summarise(last ? [last] : []).usage).toEqual(original.usage);
      expect(last?.candidates).toMatchObject([{ finishReason: original.finishReason }]);
      expect(events.slice(0, -1).some((event) => event.usageMetadata)).toBe(false);
    });
  }

  it('decodes its own re-encoding to the same canonical content', () => {
    const { chunks, out } = reencode('stream-thinking-function-call.sse', 1);
    const second = decodeAll(geminiAdapter.decodeStream(context()), Buffer.from(out), 11);
    const flatten = (list: ChatChunk[]) => ({
      content: list.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''),
      reasoning: list.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join(''),
      calls: list.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []),
      finish: list.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean),
      usage: list[list.length - 1]?.usage,
    });
    expect(flatten(second)).toEqual(flatten(chunks));
  });
});
