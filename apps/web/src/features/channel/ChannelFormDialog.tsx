import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import type { ChannelView, ProviderView } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog.js';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { showServerError, useCheckedForm } from '../../components/form/checkedForm.js';
import { dialogButtons } from '../../components/form/dialogButtons.js';
import { useFormBinding } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { FormSection } from '../../components/form/FormSection.js';
import { useWords } from '../../i18n/useWords.js';
import { describeError, notify } from '../../lib/notify.js';
import { AdvancedSection } from './ChannelAdvancedFields.js';
import { BasicSection, ConnectionSection, RoutingSection, TestModelField } from './ChannelFormFields.js';
import {
  useChannelDetail,
  useChannelTags,
  useGroupSymbols,
  usePrices,
  useProviderModels,
  useProviders,
  useSaveChannel,
  useTagDetail,
} from './channel.api.js';
import {
  type ChannelFormMode,
  type ChannelFormValues,
  channelToForm,
  copyToForm,
  emptyChannelForm,
  formFieldOf,
  keyLineCount,
  mergeModels,
  pickerProviders,
  pricedModelsFor,
  validateChannelForm,
} from './channelForm.js';
import { ModelsField } from './ModelsField.js';
import { UnpricedModelsNote } from './UnpricedModelsNote.js';

/** What the dialog opens on: a new channel (maybe a copy), a channel, or a whole tag. */
export type ChannelFormRequest =
  | { mode: 'create'; copyOf?: ChannelView }
  | { mode: 'edit'; channel: ChannelView }
  | { mode: 'tag'; tag: string };

interface ChannelFormProps {
  mode: ChannelFormMode;
  initial: ChannelFormValues;
  id: number | null;
  tag: string | null;
  /** The stored key, revealed on demand when editing. */
  storedKey?: string;
  providers: ProviderView[];
  onClose(): void;
  onSaved(): void;
}

/** Fields whose errors live in the folded advanced section. */
const ADVANCED_FIELDS = ['model_mapping', 'model_headers', 'custom_parameter', 'disabled_stream'] as const;

function ChannelForm({ mode, initial, id, tag, storedKey, providers, onClose, onSaved }: ChannelFormProps) {
  const { t } = useTranslation('channel');
  const buttons = useWords('channel', 'formDialog');
  const providerOf = (type: number) => providers.find((entry) => entry.type === type);
  // The checked body becomes the save request: what to call depends on the mode the check saw.
  const form = useCheckedForm(initial, (checked: ChannelFormValues) => {
    const result = validateChannelForm(checked, mode, { id, provider: providerOf(checked.type) }, (key, options) =>
      t(key, options),
    );
    if (!result.ok) return result;
    const request =
      result.mode === 'create'
        ? { kind: 'create' as const, body: result.body }
        : result.mode === 'edit'
          ? { kind: 'update' as const, body: result.body }
          : { kind: 'tag' as const, tag: tag ?? '', body: result.body };
    return { ok: true as const, body: request };
  });
  const [advanced, setAdvanced] = useState(
    () => ADVANCED_FIELDS.some((field) => initial[field].length > 0) || Boolean(initial.custom_parameter),
  );
  const groups = useGroupSymbols();
  const tags = useChannelTags();
  const prices = usePrices(true);
  const upstreamModels = useProviderModels();
  const [fetched, setFetched] = useState<string[]>([]);
  const save = useSaveChannel();
  const saving = save.isPending;
  const binding = useFormBinding(form, saving);
  const { values, errors, change } = binding;
  const provider = providerOf(values.type);
  // A message in the folded advanced section unfolds it, so it is seen.
  const showAdvancedErrors = (placed: FieldErrors<ChannelFormValues> | Record<string, true>) => {
    if (ADVANCED_FIELDS.some((field) => field in placed)) setAdvanced(true);
  };

  const priced = useMemo(() => pricedModelsFor(prices.data ?? [], values.type), [prices.data, values.type]);
  const modelOptions = useMemo(() => mergeModels(fetched, priced), [fetched, priced]);

  const fetchModels = () => {
    const body =
      values.key.trim() || id === null
        ? {
            type: values.type,
            key: values.key,
            base_url: values.base_url.split('\n')[0]?.trim() ?? '',
            model_headers: values.model_headers,
            proxy: values.proxy,
          }
        : { id };
    if (id === null && !values.key.trim()) {
      form.setError('key', { type: 'check', message: t('form.errors.keyForModels') });
      return;
    }
    upstreamModels.mutate(body, {
      onSuccess: (models) => {
        setFetched(models);
        const added = models.filter((model) => !values.models.includes(model)).length;
        change('models', mergeModels(values.models, models));
        notify.success(added > 0 ? t('form.fetchedModels', { count: added }) : t('form.noNewModels'));
      },
      onError: (error) => form.setError('models', { type: 'server', message: describeError(error) }),
    });
  };

  const send = (request: Parameters<typeof save.mutate>[0]) => {
    save.mutate(request, {
      onSuccess: () => {
        const created = mode === 'create' ? keyLineCount(values.key) : 0;
        notify.success(created > 1 ? t('notify.createdMany', { count: created }) : t(`notify.saved.${mode}`));
        onSaved();
      },
      onError: (error) => {
        const placed = showServerError(form.setError, error, formFieldOf);
        if (placed) showAdvancedErrors({ [placed]: true });
      },
    });
  };

  const sectionProps = { ...binding, mode, provider };
  const title =
    mode === 'create' ? t('form.createTitle') : mode === 'edit' ? t('form.editTitle') : t('form.tagTitle', { tag });
  return (
    <CheckedDialogForm
      form={form}
      onSubmit={form.handleSubmit(send, showAdvancedErrors)}
      title={title}
      onCancel={onClose}
      saving={saving}
      {...dialogButtons('channel-form', mode === 'create', buttons)}
    >
      <Stack spacing={3}>
        {mode === 'tag' && <Alert severity="info">{t('form.tagInfo')}</Alert>}
        <FormProblem testId="channel-form-error" />
        <BasicSection
          {...sectionProps}
          providers={pickerProviders(providers, mode === 'create' ? undefined : initial.type)}
          groups={groups.data ?? []}
          tags={tags.data ?? []}
        />
        <ConnectionSection
          {...sectionProps}
          onRevealKey={mode === 'edit' && storedKey ? () => change('key', storedKey) : undefined}
        />
        <FormSection title={t('form.modelsSection')}>
          <ModelsField
            value={values.models}
            onChange={(models) => change('models', models)}
            options={modelOptions}
            error={errors.models}
            disabled={saving || values.type === 0}
            onFetch={fetchModels}
            fetching={upstreamModels.isPending}
            onFillPriced={() => change('models', mergeModels(values.models, priced))}
            pricedCount={priced.length}
          />
          <UnpricedModelsNote models={values.models} modelMapping={values.model_mapping} prices={prices.data} />
          <TestModelField {...sectionProps} options={values.models} />
        </FormSection>
        {mode !== 'tag' && <RoutingSection {...sectionProps} />}
        <AdvancedSection {...sectionProps} expanded={advanced} onExpand={setAdvanced} />
      </Stack>
    </CheckedDialogForm>
  );
}

function Loading({ error, onClose }: { error: unknown; onClose(): void }) {
  const { t } = useTranslation('channel');
  return (
    <>
      <DialogContent sx={{ display: 'grid', placeItems: 'center', minHeight: 240 }}>
        {error ? <Alert severity="error">{describeError(error)}</Alert> : <CircularProgress />}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} color="inherit">
          {t('form.cancel')}
        </Button>
      </DialogActions>
    </>
  );
}

/** Loads what the request needs (the channel with its key, or the tag with all keys), then the form. */
function ChannelFormLoader({
  request,
  onClose,
  onSaved,
}: {
  request: ChannelFormRequest;
  onClose(): void;
  onSaved(): void;
}) {
  const providers = useProviders();
  const detail = useChannelDetail(request.mode === 'edit' ? request.channel.id : null);
  const tagDetail = useTagDetail(request.mode === 'tag' ? request.tag : null);
  const providerList = providers.data;
  if (!providerList) return <Loading error={providers.error} onClose={onClose} />;
  const common = { providers: providerList, onClose, onSaved };

  if (request.mode === 'create') {
    const offered = pickerProviders(providerList);
    const initial = request.copyOf ? copyToForm(request.copyOf) : emptyChannelForm(offered[0]?.type ?? 0);
    // A copy of a channel whose type is no longer offered asks for a type.
    if (!offered.some((provider) => provider.type === initial.type)) initial.type = 0;
    return <ChannelForm {...common} mode="create" initial={initial} id={null} tag={null} />;
  }
  if (request.mode === 'edit') {
    if (!detail.data) return <Loading error={detail.error} onClose={onClose} />;
    return (
      <ChannelForm
        {...common}
        mode="edit"
        initial={channelToForm(detail.data)}
        id={detail.data.id}
        tag={null}
        storedKey={detail.data.key}
      />
    );
  }
  if (!tagDetail.data) return <Loading error={tagDetail.error} onClose={onClose} />;
  return (
    <ChannelForm
      {...common}
      mode="tag"
      initial={channelToForm(tagDetail.data, tagDetail.data.key)}
      id={null}
      tag={request.tag}
    />
  );
}

/**
 * Create, copy or edit a channel, or edit every channel of a tag. `session` changes on every
 * opening so the form starts afresh; the dialog stays mounted while it closes.
 */
export function ChannelFormDialog({
  open,
  session,
  request,
  onClose,
  onSaved,
}: {
  open: boolean;
  session: number | null;
  request: ChannelFormRequest | null;
  onClose(): void;
  onSaved(): void;
}) {
  return (
    <FormDialog open={open} onClose={onClose} maxWidth="md" testId="channel-dialog">
      {session !== null && request && (
        <ChannelFormLoader key={session} request={request} onClose={onClose} onSaved={onSaved} />
      )}
    </FormDialog>
  );
}
