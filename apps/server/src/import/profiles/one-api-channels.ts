/**
 * one-api channels → One Hub channels. one-api keeps per-type settings in the `config` JSON
 * (region, ak, sk, user_id, api_version, library_id, plugin, vertex_ai_project_id, vertex_ai_adc)
 * and, for channels saved by older versions, in `other` (api version, Ali plugin, library id),
 * which it still reads when the config lacks the value (middleware/distributor.go).
 */
import type { SourceRow } from '../legacy.js';
import { ONE_API_CHANNEL_TYPES, SHARED_SOURCE_TYPES, translateChannelType } from './channel-types.js';
import {
  type ChannelParts,
  type ConvertedChannel,
  channelNote,
  familyChannel,
  withoutAppId,
} from './family-channel.js';
import { toInteger, toJsonObject, toText } from './values.js';

const { AZURE, ALI, XUNFEI, AI_PROXY_LIBRARY, TENCENT, GEMINI } = SHARED_SOURCE_TYPES;
const AWS_CLAUDE = 33;
const COZE = 34;
const CLOUDFLARE = 37;
const VERTEX = 42;

/** Splits at the first `count - 1` bars only: a Vertex key's last part is JSON that may contain bars. */
function splitBars(text: string, count: number): string[] {
  const parts = text.split('|');
  return [...parts.slice(0, count - 1), parts.slice(count - 1).join('|')];
}

/** Key and `other` in One Hub's per-type forms (reference §3.1 `other`, §5 key formats). */
function typedParts(row: SourceRow, sourceType: number): ChannelParts {
  const config = toJsonObject(row.config);
  const setting = (name: string) => toText(config[name]).trim();
  const legacyOther = toText(row.other).trim();
  const key = toText(row.key).trim();
  switch (sourceType) {
    case AZURE:
    case XUNFEI:
    case GEMINI:
      return { key, other: setting('api_version') || legacyOther };
    case ALI:
      return { key, other: setting('plugin') || legacyOther };
    case TENCENT:
      return { key: withoutAppId(key), other: '' };
    case AWS_CLAUDE: {
      // The console also wrote `ak|sk|region` into the key; the config is what one-api reads.
      const [ak = '', sk = '', region = ''] = splitBars(key, 3);
      const pick = (name: string, fallback: string) => setting(name) || fallback;
      return { key: `${pick('region', region)}|${pick('ak', ak)}|${pick('sk', sk)}`, other: '' };
    }
    case VERTEX: {
      const [region = '', project = '', credentials = ''] = splitBars(key, 3);
      const regionName = setting('region') || region;
      const projectId = setting('vertex_ai_project_id') || project;
      return { key: setting('vertex_ai_adc') || credentials, other: `${regionName}|${projectId}` };
    }
    case CLOUDFLARE: {
      const account = setting('user_id');
      return { key: account && !key.includes('|') ? `${account}|${key}` : key, other: '' };
    }
    default:
      return { key, other: '' };
  }
}

function notesFor(row: SourceRow, sourceType: number, missing: string | undefined) {
  const notes = missing ? [channelNote(row, missing)] : [];
  const config = toJsonObject(row.config);
  if (toText(row.system_prompt).trim()) {
    notes.push(channelNote(row, 'its system prompt is not carried: One Hub has no per-channel system prompt'));
  }
  if (sourceType === COZE && toText(config.user_id).trim()) {
    notes.push(channelNote(row, 'its Coze user id is not carried: One Hub sends none'));
  }
  if (sourceType === AI_PROXY_LIBRARY && (toText(config.library_id) || toText(row.other))) {
    notes.push(channelNote(row, 'its AI Proxy library id is not carried'));
  }
  return notes;
}

export function oneApiChannel(row: SourceRow): ConvertedChannel {
  const sourceType = toInteger(row.type);
  const target = translateChannelType(ONE_API_CHANNEL_TYPES, sourceType);
  return {
    channel: familyChannel(row, target, typedParts(row, sourceType)),
    notes: notesFor(row, sourceType, target.missing),
  };
}
