import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { BALANCING_STRATEGIES, type ChannelRoutingStrategy } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { FoldedSection } from '../../components/form/FoldedSection.js';
import { CODE_EXAMPLES } from './channelForm.js';
import { JsonField, type SectionProps, SwitchField, testIdOf } from './FormParts.js';

/** '' first: the user group's strategy, which most channels keep. */
const CHANNEL_STRATEGIES: ChannelRoutingStrategy[] = ['', ...BALANCING_STRATEGIES];

/** Mapping, headers, extra body parameters and the less common switches, folded by default. */
export function AdvancedSection({
  expanded,
  onExpand,
  ...props
}: SectionProps & { expanded: boolean; onExpand(open: boolean): void }) {
  const { t } = useTranslation('channel');
  const { values, change, disabled } = props;
  return (
    <FoldedSection
      title={t('form.advancedSection')}
      hint={t('form.advancedHint')}
      expanded={expanded}
      onExpand={onExpand}
      testId="channel-form-advanced"
    >
      <JsonField
        {...props}
        field="model_mapping"
        label={t('form.modelMapping')}
        hint={t('form.modelMappingHint')}
        placeholder={CODE_EXAMPLES.model_mapping}
      />
      <JsonField
        {...props}
        field="model_headers"
        label={t('form.modelHeaders')}
        hint={t('form.modelHeadersHint')}
        placeholder={CODE_EXAMPLES.model_headers}
      />
      <JsonField
        {...props}
        field="custom_parameter"
        label={t('form.customParameter')}
        hint={t('form.customParameterHint')}
        placeholder={CODE_EXAMPLES.custom_parameter}
      />
      <Autocomplete
        multiple
        freeSolo
        autoSelect
        options={values.models.filter((model) => !model.includes('*'))}
        value={values.disabled_stream}
        disabled={disabled}
        filterSelectedOptions
        onChange={(_event, next) => change('disabled_stream', [...new Set(next.map((model) => model.trim()))])}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('form.disabledStream')}
            error={Boolean(props.errors.disabled_stream)}
            helperText={props.errors.disabled_stream ?? t('form.disabledStreamHint')}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, ...testIdOf('channel-form-disabled-stream') },
            }}
          />
        )}
      />
      <TextField
        select
        label={t('form.preCost')}
        value={values.pre_cost}
        onChange={(event) => change('pre_cost', Number(event.target.value))}
        disabled={disabled}
        helperText={t('form.preCostHint')}
        fullWidth
      >
        {[1, 2, 3].map((mode) => (
          <MenuItem key={mode} value={mode}>
            {t(`form.preCostModes.${mode}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('form.routingStrategy')}
        value={values.routing_strategy}
        onChange={(event) => change('routing_strategy', event.target.value as ChannelRoutingStrategy)}
        disabled={disabled}
        helperText={t('form.routingStrategyHint')}
        fullWidth
        slotProps={{ select: { SelectDisplayProps: testIdOf('channel-form-routing-strategy') as object } }}
      >
        {CHANNEL_STRATEGIES.map((strategy) => (
          <MenuItem key={strategy || 'group'} value={strategy} data-testid={`channel-strategy-${strategy || 'group'}`}>
            {t(`form.strategies.${strategy || 'group'}`)}
          </MenuItem>
        ))}
      </TextField>
      <SwitchField
        label={t('form.onlyChat')}
        hint={t('form.onlyChatHint')}
        checked={values.only_chat}
        onChange={(checked) => change('only_chat', checked)}
        disabled={disabled}
        testId="channel-form-only-chat"
      />
      <SwitchField
        label={t('form.compatibleResponse')}
        hint={t('form.compatibleResponseHint')}
        checked={values.compatible_response}
        onChange={(checked) => change('compatible_response', checked)}
        disabled={disabled}
        testId="channel-form-compatible-response"
      />
    </FoldedSection>
  );
}
