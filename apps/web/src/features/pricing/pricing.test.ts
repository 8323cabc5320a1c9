import type { PriceView, ProviderView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { comparePrices, countStatuses, expectedEffect, parsePriceFile } from './priceCheck.js';
import { emptyPriceFields, type PriceFormValues, validateMultiplePriceForm, validatePriceForm } from './priceForm.js';
import { filterPrices, formatPriceUsd, ownerOptions, usdPrice } from './priceTable.js';
import { parsePricingParams, writePricingParams } from './usePricingParams.js';

/** Answers the key and its values, so a test can see which message was chosen. */
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);

const price = (model: string, fields: Partial<PriceView> = {}): PriceView => ({
  model,
  type: 'tokens',
  channel_type: 1,
  input: 1,
  output: 2,
  locked: false,
  extra_ratios: {},
  ...fields,
});

describe('dollar equivalents', () => {
  it('turns multipliers into $ per 1K and per 1M tokens, and $ per call for times prices', () => {
    expect(usdPrice({ type: 'tokens', input: 1.5, output: 7.5 })).toEqual({
      type: 'tokens',
      input: { perThousand: 0.003, perMillion: 3 },
      output: { perThousand: 0.015, perMillion: 15 },
    });
    expect(usdPrice({ type: 'times', input: 25, output: 99 })).toEqual({ type: 'times', perCall: 0.05 });
    expect(usdPrice({ type: 'tokens', input: -1, output: 0 })).toMatchObject({ input: { perMillion: 0 } });
    expect(formatPriceUsd(0.003)).toBe('$0.003');
    expect(formatPriceUsd(3)).toBe('$3.00');
    expect(formatPriceUsd(0.0000002)).toBe('$0.0000002');
  });
});

describe('owners and filters', () => {
  it('names owners as /api/ownedby does, channel types without an owner by their own name, in id order', () => {
    const providers = [
      { type: 1, name: 'OpenAI' },
      { type: 3, name: 'Azure OpenAI' },
    ] as ProviderView[];
    const ownedBy = {
      '1': { id: 1, name: 'OpenAI (owner)', icon: 'https://x.test/o.png' },
      '1001': { id: 1001, name: 'Acme', icon: '' },
    };
    expect(ownerOptions(providers, ownedBy)).toEqual([
      { id: 1, name: 'OpenAI (owner)', icon: 'https://x.test/o.png', custom: false },
      { id: 3, name: 'Azure OpenAI', icon: '', custom: false },
      { id: 1001, name: 'Acme', icon: '', custom: true },
    ]);
    expect(ownerOptions(undefined, undefined)).toEqual([]);
  });

  it('filters by search (any case), owner and type, in model order', () => {
    const prices = [price('b-chat'), price('A-Chat', { channel_type: 14 }), price('mj', { type: 'times' })];
    expect(filterPrices(prices, { search: 'CHAT', owner: null, type: '' }).map((p) => p.model)).toEqual([
      'A-Chat',
      'b-chat',
    ]);
    expect(filterPrices(prices, { search: '', owner: 14, type: '' }).map((p) => p.model)).toEqual(['A-Chat']);
    expect(filterPrices(prices, { search: '', owner: null, type: 'times' }).map((p) => p.model)).toEqual(['mj']);
  });
});

describe('price forms', () => {
  const values = (fields: Partial<PriceFormValues> = {}): PriceFormValues => ({
    ...emptyPriceFields(),
    model: 'my-model',
    channelType: 1,
    input: '1',
    output: '2',
    ...fields,
  });
  const taken = new Set(['gpt-4o', 'my-model']);

  it('accepts a valid price and keeps the edited name free', () => {
    const result = validatePriceForm(values(), taken, 'my-model', t);
    expect(result).toEqual({
      ok: true,
      body: {
        model: 'my-model',
        type: 'tokens',
        channel_type: 1,
        input: 1,
        output: 2,
        locked: false,
        extra_ratios: {},
      },
    });
  });

  it('puts each problem on its field', () => {
    const result = validatePriceForm(
      values({ model: 'gpt-4o', channelType: null, input: '', output: '-1' }),
      taken,
      null,
      t,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      model: 'pricing:form.errors.modelTaken {"model":"gpt-4o"}',
      channelType: 'pricing:form.errors.channelType',
      input: 'pricing:form.errors.ratio',
      output: 'pricing:form.errors.ratio',
    });
    const wildcard = validatePriceForm(values({ model: '*gpt' }), taken, null, t);
    expect(!wildcard.ok && wildcard.errors.model).toBe('pricing:form.errors.wildcard');
    const empty = validatePriceForm(values({ model: '  ' }), taken, null, t);
    expect(!empty.ok && empty.errors.model).toBe('pricing:form.errors.modelRequired');
  });

  it('lets a times price leave the output empty, and checks extra ratios', () => {
    const times = validatePriceForm(values({ type: 'times', output: '' }), taken, 'my-model', t);
    expect(times.ok && times.body.output).toBe(0);
    const extra = validatePriceForm(
      values({ extraRatios: [{ kind: 'cached_tokens', ratio: '-2' }] }),
      taken,
      'my-model',
      t,
    );
    expect(!extra.ok && extra.errors.extraRatios).toBe('pricing:form.errors.extraRatios');
    const ok = validatePriceForm(
      values({ extraRatios: [{ kind: 'cached_tokens', ratio: '0.5' }] }),
      taken,
      'my-model',
      t,
    );
    expect(ok.ok && ok.body.extra_ratios).toEqual({ cached_tokens: 0.5 });
  });

  it('gives several models one price, refusing models priced outside the edited set', () => {
    const base = { ...emptyPriceFields(), channelType: 1, input: '3', output: '4' };
    const ok = validateMultiplePriceForm({ ...base, models: ['my-model', 'new-one'] }, taken, ['my-model'], t);
    expect(ok.ok && ok.body).toMatchObject({ original_models: ['my-model'], models: ['my-model', 'new-one'] });
    const clash = validateMultiplePriceForm({ ...base, models: ['gpt-4o', 'x'] }, taken, ['my-model'], t);
    expect(!clash.ok && clash.errors.models).toBe('pricing:form.errors.modelsTaken {"models":"gpt-4o"}');
    const none = validateMultiplePriceForm({ ...base, models: [] }, taken, [], t);
    expect(!none.ok && none.errors.models).toBe('pricing:form.errors.modelsRequired');
    const bad = validateMultiplePriceForm({ ...base, models: ['ok', 'b*d'] }, taken, [], t);
    expect(!bad.ok && bad.errors.models).toBe('pricing:form.errors.wildcard');
  });
});

describe('the price-update check', () => {
  it('reads an array or {data: [...]} and refuses bad files with the entry and field named', () => {
    const good = parsePriceFile(JSON.stringify({ data: [price('a')] }), t);
    expect(good.ok && good.prices.map((p) => p.model)).toEqual(['a']);
    expect(parsePriceFile('{oops', t)).toEqual({ ok: false, errors: ['pricing:check.errors.notJson'] });
    expect(parsePriceFile('{"prices": []}', t)).toEqual({ ok: false, errors: ['pricing:check.errors.notArray'] });
    expect(parsePriceFile('[]', t)).toEqual({ ok: false, errors: ['pricing:check.errors.empty'] });
    const bad = parsePriceFile(JSON.stringify([price('fine'), { ...price('neg'), input: -1 }]), t);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]).toContain('"number":2');
    expect(bad.errors[0]).toContain('"model":"neg"');
    expect(bad.errors[0]).toContain('"field":"input"');
  });

  it('lists at most five problems and counts the rest', () => {
    const entries = Array.from({ length: 8 }, (_, index) => ({ model: `m${index}` }));
    const result = parsePriceFile(JSON.stringify(entries), t);
    expect(!result.ok && result.errors).toHaveLength(6);
    expect(!result.ok && result.errors[5]).toBe('pricing:check.errors.more {"count":3}');
  });

  it('sorts every model into new, changed, same, only-in-current or locked, and predicts each mode', () => {
    const current = [
      price('same'),
      price('changed', { input: 1 }),
      price('gone'),
      price('locked-listed', { locked: true }),
      price('locked-unlisted', { locked: true }),
    ];
    const incoming = [
      price('same'),
      price('changed', { input: 5 }),
      price('fresh'),
      price('locked-listed', { input: 9 }),
    ];
    const rows = comparePrices(current, incoming);
    expect(Object.fromEntries(rows.map((row) => [row.model, row.status]))).toEqual({
      changed: 'changed',
      fresh: 'new',
      gone: 'onlyCurrent',
      'locked-listed': 'locked',
      'locked-unlisted': 'locked',
      same: 'same',
    });
    expect(rows.find((row) => row.model === 'changed')?.differences).toEqual(['input']);
    expect(countStatuses(rows)).toEqual({ new: 1, changed: 1, same: 1, onlyCurrent: 1, locked: 2 });
    expect(expectedEffect(rows, 'add')).toEqual({ add: 1, update: 0, remove: 0 });
    expect(expectedEffect(rows, 'update')).toEqual({ add: 0, update: 1, remove: 0 });
    expect(expectedEffect(rows, 'overwrite')).toEqual({ add: 1, update: 1, remove: 1 });
  });
});

describe('URL state', () => {
  it('round-trips the tab, search, filters and page, dropping defaults and junk', () => {
    const params = parsePricingParams(new URLSearchParams('tab=owners&q=gpt&owner=14&type=times&page=3&size=50'));
    expect(params).toEqual({ tab: 'owners', search: 'gpt', owner: 14, type: 'times', page: 3, size: 50 });
    expect(writePricingParams(params).toString()).toBe('tab=owners&q=gpt&owner=14&type=times&page=3&size=50');
    expect(parsePricingParams(new URLSearchParams('tab=nope&owner=x&type=free&page=-1&size=7'))).toEqual({
      tab: 'prices',
      search: '',
      owner: null,
      type: '',
      page: 1,
      size: 25,
    });
  });
});
