/**
 * new-api channels → One Hub channels. new-api keeps the per-type value in `other` (Azure and
 * Xunfei api version, Ali plugin, Cloudflare account id, Vertex region), per-channel options in the
 * `setting` JSON (proxy…), header and body overrides in their own columns, and several keys in one
 * channel when `channel_info.is_multi_key` is set.
 */
import type { SourceRow } from '../legacy.js';
import { NEW_API_CHANNEL_TYPES, SHARED_SOURCE_TYPES, translateChannelType } from './channel-types.js';
import {
  type ChannelParts,
  type ConvertedChannel,
  channelNote,
  familyChannel,
  withoutAppId,
} from './family-channel.js';
import { objectText, toBool, toInteger, toJsonObject, toJsonValue, toStringMap, toText } from './values.js';

const { AZURE, CUSTOM, ALI, XUNFEI, TENCENT, GEMINI } = SHARED_SOURCE_TYPES;
const AWS = 33;
const CLOUDFLARE = 39;
const VERTEX = 41;

/** The keys of a channel: one, or several (newline separated or a JSON array) in multi-key mode. */
function channelKeys(row: SourceRow): string[] {
  const key = toText(row.key).trim();
  if (!toBool(toJsonObject(row.channel_info).is_multi_key)) return [key];
  const list = key.startsWith('[') ? toJsonValue(key) : undefined;
  const keys = Array.isArray(list)
    ? list.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)))
    : key.split('\n');
  return keys.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** new-api Vertex `other` is a region, or JSON {model: region, default: region}. */
function vertexRegion(other: string): string {
  const regions = toStringMap(other);
  if (Object.keys(regions).length === 0) return other;
  return regions.default ?? Object.values(regions)[0] ?? '';
}

function typedParts(sourceType: number, key: string, other: string): Pick<ChannelParts, 'key' | 'other'> {
  switch (sourceType) {
    case AZURE:
    case XUNFEI:
    case ALI:
      return { key, other };
    case GEMINI:
      // Only an API version ("v1beta") means the same as One Hub's Gemini `other`.
      return { key, other: /^v\d/.test(other) ? other : '' };
    case TENCENT:
      return { key: withoutAppId(key), other: '' };
    case AWS: {
      // new-api: `AK|SK|Region` or `APIKey|Region`; One Hub: `Region|AK|SK` or `Region|APIKey`.
      const parts = key.split('|');
      const region = parts.pop() ?? '';
      return { key: parts.length > 0 ? [region, ...parts].join('|') : key, other: '' };
    }
    case CLOUDFLARE:
      return { key: other && !key.includes('|') ? `${other}|${key}` : key, other: '' };
    case VERTEX: {
      const projectId = toText(toJsonObject(key).project_id);
      return { key, other: `${vertexRegion(other)}|${projectId}` };
    }
    default:
      return { key, other: '' };
  }
}

/** `param_override` as One Hub's `custom_parameter` when it is a plain object merged into the body. */
function customParameter(row: SourceRow): string {
  const override = toJsonObject(row.param_override);
  return 'operations' in override ? '' : objectText(override);
}

function notesFor(row: SourceRow, sourceType: number, keyCount: number, missing: string | undefined) {
  const notes = missing ? [channelNote(row, missing)] : [];
  const note = (reason: string) => notes.push(channelNote(row, reason));
  if (keyCount > 1) note(`multi-key channel: only the first of its ${keyCount} keys is carried (add the others)`);
  if (sourceType === CUSTOM) note('new-api Custom channels take a full request URL; One Hub appends the API path');
  if ('operations' in toJsonObject(row.param_override)) note('its parameter override operations are not carried');
  if (objectText(toJsonObject(row.status_code_mapping))) note('its status code mapping is not carried');
  if (toText(row.openai_organization).trim()) note('its OpenAI organization is not carried');
  if (row.auto_ban !== undefined && row.auto_ban !== null && toInteger(row.auto_ban, 1) === 0) {
    note('it was exempt from automatic disabling; One Hub applies that setting to every channel');
  }
  if (sourceType === VERTEX && !toText(toJsonObject(row.key).project_id)) {
    note('its Vertex key is not a service-account JSON with a project id, which One Hub needs');
  }
  return notes;
}

export function newApiChannel(row: SourceRow): ConvertedChannel {
  const sourceType = toInteger(row.type);
  const target = translateChannelType(NEW_API_CHANNEL_TYPES, sourceType);
  const keys = channelKeys(row);
  const setting = toJsonObject(row.setting);
  const parts: ChannelParts = {
    ...typedParts(sourceType, keys[0] ?? '', toText(row.other).trim()),
    model_headers: objectText(toStringMap(row.header_override)),
    custom_parameter: customParameter(row),
    proxy: toText(setting.proxy).trim(),
    test_model: toText(row.test_model).trim(),
    tag: toText(row.tag).trim(),
  };
  return {
    channel: familyChannel(row, target, parts),
    notes: notesFor(row, sourceType, keys.length, target.missing),
  };
}
