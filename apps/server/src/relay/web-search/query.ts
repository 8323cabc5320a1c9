import { isRecord, type Json } from '@one-hub/contracts';

/**
 * The search query of a `#search` chat: the query model reads the client's last turn (and the one
 * before, for follow-ups such as "and tomorrow?") and writes one query, or NONE when the message
 * needs no search. Plain text, no tools, so any chat model on any channel type can do it.
 */

const NO_SEARCH = 'NONE';
const MAX_QUERY = 200;
/** The turns shown to the query model are cut to this many characters each (the text's end is kept). */
const MAX_TURN = 4000;

/** The text of a message's content: a string, or its text parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text)
    .join('\n');
}

/** The last message, when it is the user's and has text: what `#search` searches for. */
export function lastUserText(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  const last: unknown = messages.at(-1);
  if (!isRecord(last) || last.role !== 'user') return undefined;
  const text = contentText(last.content).trim();
  return text === '' ? undefined : text;
}

/** The request asking `model` for the query, dated `today` (YYYY-MM-DD) so "latest" means something. */
export function queryRequest(model: string, messages: Json[], today: string): Json & { model: string } {
  const turns = messages
    .slice(-2)
    .filter(isRecord)
    .map((message) => `${String(message.role)}: ${contentText(message.content).trim().slice(-MAX_TURN)}`)
    .join('\n\n');
  const instructions = [
    `Today is ${today}. You turn a chat message into a web search query.`,
    'Read the conversation below and write the one search query that would find what is needed to answer',
    'its last message, in the language of that message. Reply with the query alone: no quotes, no',
    `explanation. If the last message needs nothing from the web (a greeting, arithmetic, rewriting text it`,
    `gives), reply with ${NO_SEARCH}.`,
  ].join(' ');
  return {
    model,
    messages: [
      { role: 'system', content: instructions },
      { role: 'user', content: turns },
    ],
  };
}

/** The query in the query model's answer (an OpenAI chat completion); undefined for NONE or nothing. */
export function queryFromAnswer(body: Buffer | string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString());
  } catch {
    return undefined;
  }
  const choice = isRecord(parsed) && Array.isArray(parsed.choices) ? parsed.choices[0] : undefined;
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
  const line = contentText(message?.content)
    .split('\n')
    .map((part) => part.trim())
    .find((part) => part !== '');
  const query = line?.replace(/^["'`“”「]+|["'`“”」]+$/g, '').trim();
  if (!query || query.toUpperCase() === NO_SEARCH) return undefined;
  return query.slice(0, MAX_QUERY);
}
