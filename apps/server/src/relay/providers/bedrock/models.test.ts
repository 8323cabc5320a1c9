import { describe, expect, it } from 'vitest';
import {
  bedrockModelId,
  CLAUDE_BEDROCK_IDS,
  claudeFamilyName,
  encodeModelId,
  isClaudeModel,
  splitThinking,
} from './models.js';

describe('bedrockModelId', () => {
  it('maps each dated Claude name to its Bedrock base model id', () => {
    // Spot checks of the irregular ids (the table itself is data, not repeated here).
    expect(CLAUDE_BEDROCK_IDS['claude-2.1']).toBe('anthropic.claude-v2:1');
    expect(CLAUDE_BEDROCK_IDS['claude-3-5-sonnet-20241022']).toBe('anthropic.claude-3-5-sonnet-20241022-v2:0');
    expect(CLAUDE_BEDROCK_IDS['claude-opus-4-6']).toBe('anthropic.claude-opus-4-6-v1');
    expect(CLAUDE_BEDROCK_IDS['claude-sonnet-4-6']).toBe('anthropic.claude-sonnet-4-6');
    expect(Object.keys(CLAUDE_BEDROCK_IDS)).toHaveLength(18);
    // Every other dated name keeps its date and gains a version suffix.
    for (const [name, id] of Object.entries(CLAUDE_BEDROCK_IDS)) {
      if (/\d{8}$/.test(name)) expect(id).toMatch(new RegExp(`^anthropic\\.${name}-v\\d:0$`));
    }
    for (const [name, id] of Object.entries(CLAUDE_BEDROCK_IDS)) expect(bedrockModelId(name)).toBe(id);
  });

  it('maps undated aliases through their dated model', () => {
    expect(bedrockModelId('claude-sonnet-4-5')).toBe('anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrockModelId('claude-haiku-4-5')).toBe('anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(bedrockModelId('claude-opus-4-5')).toBe('anthropic.claude-opus-4-5-20251101-v1:0');
    expect(bedrockModelId('claude-opus-4-1')).toBe('anthropic.claude-opus-4-1-20250805-v1:0');
    expect(bedrockModelId('claude-sonnet-4-0')).toBe('anthropic.claude-sonnet-4-20250514-v1:0');
    expect(bedrockModelId('claude-opus-4')).toBe('anthropic.claude-opus-4-20250514-v1:0');
    expect(bedrockModelId('claude-3-7-sonnet-latest')).toBe('anthropic.claude-3-7-sonnet-20250219-v1:0');
    expect(bedrockModelId('claude-3-5-sonnet-latest')).toBe('anthropic.claude-3-5-sonnet-20241022-v2:0');
    expect(bedrockModelId('claude-3-5-haiku-latest')).toBe('anthropic.claude-3-5-haiku-20241022-v1:0');
  });

  it('keeps Bedrock ids, inference profiles, ARNs and other providers unchanged', () => {
    for (const id of [
      'anthropic.claude-3-5-sonnet-20241022-v2:0',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
      'apac.anthropic.claude-sonnet-4-20250514-v1:0',
      'global.anthropic.claude-haiku-4-5-20251001-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-opus-4-1-20250805-v1:0',
      'arn:aws:bedrock:us-west-2:123456789012:provisioned-model/abc123def456',
      'amazon.nova-pro-v1:0',
      'meta.llama3-1-70b-instruct-v1:0',
      'mistral.mistral-large-2407-v1:0',
    ]) {
      expect(bedrockModelId(id)).toBe(id);
    }
  });

  it('sends an unknown plain Claude name as anthropic.<name>, and drops the #thinking switch', () => {
    expect(bedrockModelId('claude-opus-9')).toBe('anthropic.claude-opus-9');
    expect(bedrockModelId('claude-sonnet-4-5#thinking')).toBe('anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrockModelId('us.anthropic.claude-sonnet-4-5-20250929-v1:0#thinking')).toBe(
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
    expect(splitThinking('claude-opus-4-1#thinking')).toEqual({ name: 'claude-opus-4-1', thinking: true });
    expect(splitThinking('claude-opus-4-1')).toEqual({ name: 'claude-opus-4-1', thinking: false });
  });
});

describe('isClaudeModel', () => {
  it('tells Claude (InvokeModel) from everything else (Converse)', () => {
    expect(isClaudeModel('claude-sonnet-4-5')).toBe(true);
    expect(isClaudeModel('anthropic.claude-v2:1')).toBe(true);
    expect(isClaudeModel('us.anthropic.claude-3-5-haiku-20241022-v1:0')).toBe(true);
    expect(
      isClaudeModel(
        'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-opus-4-1-20250805-v1:0',
      ),
    ).toBe(true);
    expect(isClaudeModel('amazon.nova-lite-v1:0')).toBe(false);
    expect(isClaudeModel('meta.llama3-1-8b-instruct-v1:0')).toBe(false);
    expect(isClaudeModel('arn:aws:bedrock:us-west-2:123456789012:provisioned-model/abc123def456')).toBe(false);
  });
});

describe('claudeFamilyName', () => {
  it('gives the Anthropic name the Anthropic translation chooses defaults by', () => {
    expect(claudeFamilyName('anthropic.claude-3-5-sonnet-20241022-v2:0')).toBe('claude-3-5-sonnet-20241022');
    expect(claudeFamilyName('us.anthropic.claude-3-haiku-20240307-v1:0')).toBe('claude-3-haiku-20240307');
    expect(claudeFamilyName('anthropic.claude-opus-4-6-v1')).toBe('claude-opus-4-6');
    expect(claudeFamilyName('anthropic.claude-sonnet-4-6')).toBe('claude-sonnet-4-6');
    expect(claudeFamilyName('anthropic.claude-v2')).toBe('claude-2.0');
    expect(claudeFamilyName('anthropic.claude-v2:1')).toBe('claude-2.1');
    expect(claudeFamilyName('anthropic.claude-instant-v1')).toBe('claude-instant-1.2');
  });
});

describe('encodeModelId', () => {
  it('escapes the colon of a version and the slashes of an ARN, as a path label', () => {
    expect(encodeModelId('anthropic.claude-3-5-sonnet-20241022-v2:0')).toBe(
      'anthropic.claude-3-5-sonnet-20241022-v2%3A0',
    );
    expect(encodeModelId('arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-x')).toBe(
      'arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-x',
    );
    expect(encodeModelId("odd(name)*!'")).toBe('odd%28name%29%2A%21%27');
  });
});
