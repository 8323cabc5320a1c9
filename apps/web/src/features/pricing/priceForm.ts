import {
  EXTRA_TOKEN_KINDS,
  type MultiplePricesBody,
  multiplePricesBody,
  PRICE_MODEL_MAX_LENGTH,
  type PriceBody,
  type PriceType,
  type PriceView,
  priceBody,
} from '@one-hub/contracts';
import type { FormCheck } from '../../components/form/checkedForm.js';
import { placeIssues } from '../../components/form/placeIssues.js';
import { numberOf } from '../../components/form/typedNumber.js';

export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** One extra-token ratio row of the form: a token kind and its ratio as typed. */
export interface ExtraRatioRow {
  kind: string;
  ratio: string;
}

/** The price fields both dialogs share, as the inputs hold them (numbers as typed text). */
export interface PriceFieldValues {
  channelType: number | null;
  type: PriceType;
  input: string;
  output: string;
  locked: boolean;
  extraRatios: ExtraRatioRow[];
}

export interface PriceFormValues extends PriceFieldValues {
  model: string;
}

export interface MultiplePriceFormValues extends PriceFieldValues {
  models: string[];
}

export type PriceFormField = 'model' | 'models' | 'channelType' | 'type' | 'input' | 'output' | 'extraRatios';
export type PriceFormErrors = Partial<Record<PriceFormField, string>>;

export type FormResult<Body> = FormCheck<Body, PriceFormField>;

export function emptyPriceFields(): PriceFieldValues {
  return { channelType: null, type: 'tokens', input: '', output: '', locked: false, extraRatios: [] };
}

export function priceToFields(price: PriceView): PriceFieldValues {
  return {
    channelType: price.channel_type,
    type: price.type,
    input: String(price.input),
    output: String(price.output),
    locked: price.locked,
    extraRatios: Object.entries(price.extra_ratios ?? {}).map(([kind, ratio]) => ({ kind, ratio: String(ratio) })),
  };
}

function fieldsToInput(values: PriceFieldValues) {
  return {
    type: values.type,
    channel_type: values.channelType ?? Number.NaN,
    input: numberOf(values.input),
    // A `times` price bills the input alone; an empty output means none.
    output: values.type === 'times' && values.output.trim() === '' ? 0 : numberOf(values.output),
    locked: values.locked,
    extra_ratios: Object.fromEntries(values.extraRatios.map((row) => [row.kind, numberOf(row.ratio)])),
  };
}

type Issue = NonNullable<ReturnType<typeof priceBody.safeParse>['error']>['issues'][number];

function fieldOf(path: ReadonlyArray<PropertyKey>): PriceFormField | null {
  const [first, second] = path[0] === 'price' ? path.slice(1) : path;
  const fields: Record<string, PriceFormField> = {
    model: 'model',
    models: 'models',
    channel_type: 'channelType',
    type: 'type',
    input: 'input',
    output: 'output',
    extra_ratios: 'extraRatios',
  };
  if (first === 'models' && typeof second === 'number') return 'models';
  return typeof first === 'string' ? (fields[first] ?? null) : null;
}

function issueText(field: PriceFormField, issue: Issue, t: Translate): string {
  switch (field) {
    case 'model':
    case 'models':
      if (issue.code === 'too_big' && field === 'model') {
        return t('pricing:form.errors.modelTooLong', { max: PRICE_MODEL_MAX_LENGTH });
      }
      if (issue.code === 'invalid_format') return t('pricing:form.errors.wildcard');
      return field === 'models' ? t('pricing:form.errors.modelsRequired') : t('pricing:form.errors.modelRequired');
    case 'channelType':
      return t('pricing:form.errors.channelType');
    case 'type':
      return t('pricing:form.errors.type');
    case 'input':
    case 'output':
      return issue.code === 'too_big' ? t('pricing:form.errors.ratioTooBig') : t('pricing:form.errors.ratio');
    case 'extraRatios':
      return t('pricing:form.errors.extraRatios');
  }
}

function collect(issues: readonly Issue[], t: Translate) {
  return placeIssues(issues, fieldOf, (field, issue) => issueText(field, issue, t));
}

function duplicateKinds(rows: readonly ExtraRatioRow[]): boolean {
  return new Set(rows.map((row) => row.kind)).size !== rows.length;
}

/**
 * Validates a single price with the server's schema; also that the model is not priced already
 * (`taken`: every stored model; `original`: the name being edited, which may stay).
 */
export function validatePriceForm(
  values: PriceFormValues,
  taken: ReadonlySet<string>,
  original: string | null,
  t: Translate,
): FormResult<PriceBody> {
  const parsed = priceBody.safeParse({ ...fieldsToInput(values), model: values.model });
  const { errors, unplaced } = collect(parsed.error?.issues ?? [], t);
  const model = values.model.trim();
  if (!errors.model && model !== original && taken.has(model)) {
    errors.model = t('pricing:form.errors.modelTaken', { model });
  }
  if (!errors.extraRatios && duplicateKinds(values.extraRatios))
    errors.extraRatios = t('pricing:form.errors.extraRatios');
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, errors, unplaced };
}

/**
 * Validates one shared price for several models. A model may be in the list only once, and only
 * if it has no price yet or is one of `originals` (the models being edited together).
 */
export function validateMultiplePriceForm(
  values: MultiplePriceFormValues,
  taken: ReadonlySet<string>,
  originals: readonly string[],
  t: Translate,
): FormResult<MultiplePricesBody> {
  const models = values.models.map((model) => model.trim());
  const parsed = multiplePricesBody.safeParse({ original_models: originals, models, price: fieldsToInput(values) });
  const { errors, unplaced } = collect(parsed.error?.issues ?? [], t);
  if (!errors.models) {
    const kept = new Set(originals);
    const clashes = models.filter((model) => taken.has(model) && !kept.has(model));
    const repeated = models.filter((model, index) => models.indexOf(model) !== index);
    if (clashes.length > 0) errors.models = t('pricing:form.errors.modelsTaken', { models: clashes.join(', ') });
    else if (repeated.length > 0)
      errors.models = t('pricing:form.errors.modelsRepeated', { models: repeated.join(', ') });
  }
  if (!errors.extraRatios && duplicateKinds(values.extraRatios))
    errors.extraRatios = t('pricing:form.errors.extraRatios');
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, errors, unplaced };
}

/** Token kinds not yet used by a row, for the "add ratio" button. */
export function unusedExtraKinds(rows: readonly ExtraRatioRow[]): string[] {
  const used = new Set(rows.map((row) => row.kind));
  return EXTRA_TOKEN_KINDS.filter((kind) => !used.has(kind));
}
