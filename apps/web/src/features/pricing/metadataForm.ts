import {
  type CreateOwnedByBody,
  createOwnedByBody,
  MODEL_INFO_DESCRIPTION_MAX_LENGTH,
  MODEL_INFO_NAME_MAX_LENGTH,
  type ModelInfoBody,
  type ModelInfoView,
  modelInfoBody,
  OWNER_NAME_MAX_LENGTH,
  type OwnedByView,
  parseModelInfoList,
  RESERVED_OWNER_ID_MAX,
  type UpdateOwnedByBody,
  updateOwnedByBody,
} from '@one-hub/contracts';
import type { FormCheck } from '../../components/form/checkedForm.js';
import { placeIssues } from '../../components/form/placeIssues.js';
import type { Translate } from './priceForm.js';

// ---- owners ----

export interface OwnerFormValues {
  /** Empty: the server takes the next free id. */
  id: string;
  name: string;
  icon: string;
}
const OWNER_FIELDS = ['id', 'name', 'icon'] as const;
export type OwnerFormField = (typeof OWNER_FIELDS)[number];

function ownerIssueText(field: OwnerFormField, tooLong: boolean, t: Translate): string {
  if (field === 'id') return t('pricing:owners.errors.id', { min: RESERVED_OWNER_ID_MAX + 1 });
  if (field === 'icon') return t('pricing:owners.errors.icon');
  return tooLong
    ? t('pricing:owners.errors.nameTooLong', { max: OWNER_NAME_MAX_LENGTH })
    : t('pricing:owners.errors.name');
}

export function ownerToForm(owner: OwnedByView | null): OwnerFormValues {
  return owner ? { id: String(owner.id), name: owner.name, icon: owner.icon } : { id: '', name: '', icon: '' };
}

/** Validates an owner with the server's schema; `editing` keeps the id of the owner being edited. */
export function validateOwnerForm(
  values: OwnerFormValues,
  editing: boolean,
  takenIds: ReadonlySet<number>,
  t: Translate,
): FormCheck<CreateOwnedByBody | UpdateOwnedByBody, OwnerFormField> {
  const idText = values.id.trim();
  const id = idText === '' ? undefined : Number(idText);
  const input = { id, name: values.name, icon: values.icon };
  const parsed = editing ? updateOwnedByBody.safeParse(input) : createOwnedByBody.safeParse(input);
  const { errors, unplaced } = placeIssues(
    parsed.error?.issues ?? [],
    (path) => OWNER_FIELDS.find((field) => field === path[0]),
    (field, issue) => ownerIssueText(field, issue.code === 'too_big', t),
  );
  if (!editing && !errors.id && id !== undefined && id !== 0 && takenIds.has(id)) {
    errors.id = t('pricing:owners.errors.idTaken', { id });
  }
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, errors, unplaced };
}

// ---- model information ----

export interface ModelInfoFormValues {
  model: string;
  name: string;
  description: string;
  contextLength: string;
  maxTokens: string;
  inputModalities: string[];
  outputModalities: string[];
  tags: string[];
  /** One URL per line. */
  supportUrls: string;
}
export type ModelInfoFormField =
  | 'model'
  | 'name'
  | 'description'
  | 'contextLength'
  | 'maxTokens'
  | 'inputModalities'
  | 'outputModalities'
  | 'tags'
  | 'supportUrls';

export function modelInfoToForm(info: ModelInfoView | null, model = ''): ModelInfoFormValues {
  if (!info) {
    return {
      model,
      name: '',
      description: '',
      contextLength: '',
      maxTokens: '',
      inputModalities: ['text'],
      outputModalities: ['text'],
      tags: [],
      supportUrls: '',
    };
  }
  return {
    model: info.model,
    name: info.name,
    description: info.description,
    contextLength: info.context_length ? String(info.context_length) : '',
    maxTokens: info.max_tokens ? String(info.max_tokens) : '',
    inputModalities: parseModelInfoList(info.input_modalities),
    outputModalities: parseModelInfoList(info.output_modalities),
    tags: parseModelInfoList(info.tags),
    supportUrls: parseModelInfoList(info.support_url).join('\n'),
  };
}

/** An empty count means "not given" (0); anything else must read as a number. */
function countOf(text: string): number {
  return text.trim() === '' ? 0 : Number(text);
}

const infoFields: Record<string, ModelInfoFormField> = {
  model: 'model',
  name: 'name',
  description: 'description',
  context_length: 'contextLength',
  max_tokens: 'maxTokens',
  input_modalities: 'inputModalities',
  output_modalities: 'outputModalities',
  tags: 'tags',
  support_url: 'supportUrls',
};

function infoIssueText(field: ModelInfoFormField, tooBig: boolean, t: Translate): string {
  switch (field) {
    case 'model':
      return t('pricing:info.errors.model');
    case 'name':
      return tooBig
        ? t('pricing:info.errors.nameTooLong', { max: MODEL_INFO_NAME_MAX_LENGTH })
        : t('pricing:info.errors.name');
    case 'description':
      return t('pricing:info.errors.description', { max: MODEL_INFO_DESCRIPTION_MAX_LENGTH });
    case 'contextLength':
    case 'maxTokens':
      return t('pricing:info.errors.count');
    case 'inputModalities':
    case 'outputModalities':
    case 'tags':
      return t('pricing:info.errors.list');
    case 'supportUrls':
      return t('pricing:info.errors.url');
  }
}

/** Validates model information with the server's schema; a model may be described once. */
export function validateModelInfoForm(
  values: ModelInfoFormValues,
  takenModels: ReadonlySet<string>,
  original: string | null,
  t: Translate,
): FormCheck<ModelInfoBody, ModelInfoFormField> {
  const input = {
    model: values.model,
    name: values.name,
    description: values.description,
    context_length: countOf(values.contextLength),
    max_tokens: countOf(values.maxTokens),
    input_modalities: values.inputModalities,
    output_modalities: values.outputModalities,
    tags: values.tags,
    support_url: values.supportUrls
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  };
  const parsed = modelInfoBody.safeParse(input);
  const { errors, unplaced } = placeIssues(
    parsed.error?.issues ?? [],
    (path) => (typeof path[0] === 'string' ? infoFields[path[0]] : undefined),
    (field, issue) => infoIssueText(field, issue.code === 'too_big', t),
  );
  const model = values.model.trim();
  if (!errors.model && model !== original && takenModels.has(model)) {
    errors.model = t('pricing:info.errors.modelTaken', { model });
  }
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, errors, unplaced };
}
