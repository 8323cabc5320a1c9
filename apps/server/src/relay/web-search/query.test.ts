import { describe, expect, it } from 'vitest';
import { modelWithoutSearch } from '../routing/model-name.js';
import { citedMessageText, withText } from './citation.js';
import { lastUserText, queryFromAnswer, queryRequest } from './query.js';

const completion = (content: unknown) =>
  JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] });

describe('the #search query', () => {
  it('reads the switch off the end of a model name only', () => {
    expect(modelWithoutSearch('gpt-4o#search')).toBe('gpt-4o');
    expect(modelWithoutSearch('gpt-4o')).toBeUndefined();
    expect(modelWithoutSearch('gpt-4o#search-preview')).toBeUndefined();
    expect(modelWithoutSearch('claude-3-7-sonnet#thinking')).toBeUndefined();
  });

  it('searches only for a last message that is the user’s and has text', () => {
    expect(lastUserText([{ role: 'user', content: '  news today ' }])).toBe('news today');
    expect(
      lastUserText([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ]),
    ).toBe('a\nb');
    expect(
      lastUserText([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ]),
    ).toBeUndefined();
    expect(lastUserText([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }])).toBeUndefined();
    expect(lastUserText('not a list')).toBeUndefined();
  });

  it('shows the query model the last two turns, dated', () => {
    const request = queryRequest(
      'gpt-4o-mini',
      [
        { role: 'system', content: 'be brief' },
        { role: 'assistant', content: 'Paris is sunny.' },
        { role: 'user', content: 'and tomorrow?' },
      ],
      '2026-12-06',
    );
    const [system, user] = request.messages as Array<{ content: string }>;
    expect(system?.content).toContain('Today is 2026-12-06.');
    expect(user?.content).toBe('assistant: Paris is sunny.\n\nuser: and tomorrow?');
  });

  it('takes the first line of the answer, without quotes; NONE, nothing or no JSON is no query', () => {
    expect(queryFromAnswer(completion('"Paris weather"\nbecause…'))).toBe('Paris weather');
    expect(queryFromAnswer(completion('\n  「巴黎天气」 '))).toBe('巴黎天气');
    expect(queryFromAnswer(completion([{ type: 'text', text: 'rust 1.90 release' }]))).toBe('rust 1.90 release');
    expect(queryFromAnswer(completion('none'))).toBeUndefined();
    expect(queryFromAnswer(completion(''))).toBeUndefined();
    expect(queryFromAnswer(completion(null))).toBeUndefined();
    expect(queryFromAnswer('not json')).toBeUndefined();
    expect(queryFromAnswer(completion('x'.repeat(500)))).toHaveLength(200);
  });

  it('numbers the results, names a result without a title by its URL, and ends with the message', () => {
    const text = citedMessageText(
      [
        { title: 'A', url: 'https://a.example', snippet: 'alpha' },
        { title: '', url: 'https://b.example', snippet: '' },
      ],
      'question?',
      '2026-12-06',
    );
    expect(text).toContain('[1] A\nURL: https://a.example\nalpha\n\n[2] https://b.example\nURL: https://b.example\n\n');
    expect(text).toContain('searched 2026-12-06');
    expect(text.endsWith('The message:\nquestion?')).toBe(true);
    expect(withText({ role: 'user', content: 'old' }, 'new')).toEqual({ role: 'user', content: 'new' });
  });
});
