import { describe, expect, it } from 'vitest';
import { modelInfoToForm, ownerToForm, validateModelInfoForm, validateOwnerForm } from './metadataForm.js';

const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);

describe('owner form', () => {
  const taken = new Set([1, 14, 1001]);

  it('creates with or without an id above the reserved range', () => {
    expect(validateOwnerForm({ id: '', name: ' Acme ', icon: '' }, false, taken, t)).toEqual({
      ok: true,
      body: { name: 'Acme', icon: '' },
    });
    const chosen = validateOwnerForm({ id: '2000', name: 'Acme', icon: 'https://x.test/a.png' }, false, taken, t);
    expect(chosen.ok && chosen.body).toEqual({ id: 2000, name: 'Acme', icon: 'https://x.test/a.png' });
  });

  it('refuses reserved and used ids, an empty name and a non-http icon, on their fields', () => {
    const result = validateOwnerForm({ id: '14', name: '', icon: 'ftp://x' }, false, taken, t);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      id: 'pricing:owners.errors.id {"min":1001}',
      name: 'pricing:owners.errors.name',
      icon: 'pricing:owners.errors.icon',
    });
    const used = validateOwnerForm({ id: '1001', name: 'Twice', icon: '' }, false, taken, t);
    expect(!used.ok && used.errors.id).toBe('pricing:owners.errors.idTaken {"id":1001}');
  });

  it('edits an owner under its own id', () => {
    const form = ownerToForm({ id: 1001, name: 'Acme', icon: '' });
    const result = validateOwnerForm({ ...form, name: 'Acme Labs' }, true, taken, t);
    expect(result.ok && result.body).toEqual({ id: 1001, name: 'Acme Labs', icon: '' });
  });
});

describe('model information form', () => {
  const base = { ...modelInfoToForm(null, 'gpt-4o'), name: 'GPT-4o' };

  it('builds the body with lists, counts and one URL per line', () => {
    const result = validateModelInfoForm(
      { ...base, contextLength: '128000', tags: ['chat'], supportUrls: 'https://a.test\n\n https://b.test ' },
      new Set(),
      null,
      t,
    );
    expect(result.ok && result.body).toEqual({
      model: 'gpt-4o',
      name: 'GPT-4o',
      description: '',
      context_length: 128000,
      max_tokens: 0,
      input_modalities: ['text'],
      output_modalities: ['text'],
      tags: ['chat'],
      support_url: ['https://a.test', 'https://b.test'],
    });
  });

  it('refuses a described model, bad counts and bad URLs on their fields', () => {
    const result = validateModelInfoForm(
      { ...base, name: '', contextLength: '-5', maxTokens: '1.5', supportUrls: 'not a url' },
      new Set(['gpt-4o']),
      null,
      t,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      model: 'pricing:info.errors.modelTaken {"model":"gpt-4o"}',
      name: 'pricing:info.errors.name',
      contextLength: 'pricing:info.errors.count',
      maxTokens: 'pricing:info.errors.count',
      supportUrls: 'pricing:info.errors.url',
    });
    const same = validateModelInfoForm(base, new Set(['gpt-4o']), 'gpt-4o', t);
    expect(same.ok).toBe(true);
  });

  it('reads stored JSON-array text back into the form', () => {
    const form = modelInfoToForm({
      id: 1,
      model: 'm',
      name: 'M',
      description: 'd',
      context_length: 0,
      max_tokens: 10,
      input_modalities: '["text","image"]',
      output_modalities: '[]',
      tags: '["a"]',
      support_url: 'https://plain.test',
      created_at: 1,
      updated_at: 1,
    });
    expect(form).toMatchObject({
      contextLength: '',
      maxTokens: '10',
      inputModalities: ['text', 'image'],
      outputModalities: [],
      tags: ['a'],
      supportUrls: 'https://plain.test',
    });
  });
});
