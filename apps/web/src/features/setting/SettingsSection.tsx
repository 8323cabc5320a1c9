import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import CheckCircleOutlineOutlined from '@mui/icons-material/CheckCircleOutlineOutlined';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import FingerprintOutlined from '@mui/icons-material/FingerprintOutlined';
import GitHub from '@mui/icons-material/GitHub';
import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import MailOutlined from '@mui/icons-material/MailOutlined';
import MonitorHeartOutlined from '@mui/icons-material/MonitorHeartOutlined';
import PaletteOutlined from '@mui/icons-material/PaletteOutlined';
import PolicyOutlined from '@mui/icons-material/PolicyOutlined';
import QrCode2Outlined from '@mui/icons-material/QrCode2Outlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { optionDefinitions } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../components/SectionCard.js';
import { ChatLinksEditor } from './ChatLinksEditor.js';
import { ContentField } from './ContentField.js';
import { DomainsField } from './DomainsField.js';
import { LogCleanup } from './LogCleanup.js';
import { JsonField, SecretField, SelectField, SwitchField, TextOptionField } from './OptionFields.js';
import { useSettingsForm } from './SettingsForm.js';
import { type FieldSpec, fieldKind, type SectionSpec, sectionKeys } from './sections.js';
import { changedKeys } from './settingsForm.js';

const icons: Record<string, ReactNode> = {
  quota: <TuneOutlined />,
  users: <GroupAddOutlined />,
  retry: <ReplayOutlined />,
  monitor: <MonitorHeartOutlined />,
  topup: <AccountBalanceWalletOutlined />,
  logs: <ReceiptLongOutlined />,
  chatLinks: <ChatOutlined />,
  server: <DnsOutlined />,
  access: <LoginOutlined />,
  smtp: <MailOutlined />,
  emailDomain: <PolicyOutlined />,
  github: <GitHub />,
  oidc: <FingerprintOutlined />,
  lark: <HubOutlined />,
  wechat: <QrCode2Outlined />,
  turnstile: <VerifiedUserOutlined />,
  branding: <PaletteOutlined />,
  notice: <CampaignOutlined />,
  about: <InfoOutlined />,
  home: <HomeOutlined />,
  models: <SmartToyOutlined />,
  safety: <ShieldOutlined />,
  extras: <ExtensionOutlined />,
};

function Field({ field }: { field: FieldSpec }) {
  const { key } = field;
  const kind = fieldKind(field);
  switch (kind) {
    case 'switch':
      return <SwitchField name={key} />;
    case 'secret':
      return <SecretField name={key} />;
    case 'select':
      return <SelectField name={key} />;
    case 'json':
      return <JsonField name={key} />;
    case 'markdown':
    case 'rich':
      return <ContentField name={key} mode={kind} />;
    case 'domains':
      return <DomainsField name={key} />;
    case 'chatLinks':
      return <ChatLinksEditor name={key} />;
    default:
      return <TextOptionField name={key} variant={kind} />;
  }
}

type Layout = 'pair' | 'switch' | 'wide';
/** Switches form a list; short values go two to a row; secrets, addresses and long text take the row. */
const layoutOf = (field: FieldSpec): Layout => {
  const kind = fieldKind(field);
  if (kind === 'switch') return 'switch';
  const hasFormat = 'format' in optionDefinitions[field.key];
  if (kind === 'number' || kind === 'select' || (kind === 'text' && !hasFormat)) return 'pair';
  return 'wide';
};

/** Consecutive fields of the same layout go together: short ones two to a row, switches as a list. */
function groupFields(fields: FieldSpec[]): Array<{ layout: Layout; fields: FieldSpec[] }> {
  const groups: Array<{ layout: Layout; fields: FieldSpec[] }> = [];
  for (const field of fields) {
    const layout = layoutOf(field);
    const last = groups.at(-1);
    if (last && last.layout === layout && layout !== 'wide') last.fields.push(field);
    else groups.push({ layout, fields: [field] });
  }
  return groups;
}

function FieldGroup({ layout, fields }: { layout: Layout; fields: FieldSpec[] }) {
  if (layout === 'switch') {
    return (
      <Stack divider={<Divider flexItem />}>
        {fields.map((field) => (
          <Field key={field.key} field={field} />
        ))}
      </Stack>
    );
  }
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2.25,
        gridTemplateColumns: layout === 'pair' && fields.length > 1 ? { xs: '1fr', sm: '1fr 1fr' } : '1fr',
        // An odd last field of a pair group takes the whole row.
        '& > :last-child:nth-of-type(odd)': { gridColumn: '1 / -1' },
      }}
    >
      {fields.map((field) => (
        <Field key={field.key} field={field} />
      ))}
    </Box>
  );
}

/** One titled card of settings with its own save: only its changed keys are sent. */
export function SettingsSection({ section }: { section: SectionSpec }) {
  const { t } = useTranslation('setting');
  const form = useSettingsForm();
  const keys = sectionKeys(section);
  const pending = changedKeys(form.snapshot, form.changes, keys);
  const saving = form.savingSection === section.id;
  const saved = form.lastSaved[section.id] ?? [];
  const { id } = section;

  let status: ReactNode = (
    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
      {t('save.upToDate')}
    </Typography>
  );
  if (pending.length > 0) {
    status = (
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        label={t('save.unsaved', { count: pending.length })}
        data-testid={`setting-dirty-${id}`}
        data-count={pending.length}
      />
    );
  } else if (saved.length > 0) {
    status = (
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'success.main', minWidth: 0 }}>
        <CheckCircleOutlineOutlined fontSize="small" />
        <Typography variant="body2" data-testid={`setting-saved-${id}`} data-keys={saved.join(',')}>
          {t('save.savedList', { fields: saved.map((key) => t(`fields.${key}.label`)).join(t('save.joiner')) })}
        </Typography>
      </Stack>
    );
  }

  return (
    <SectionCard
      icon={icons[id]}
      title={t(`sections.${id}.title`)}
      subtitle={t(`sections.${id}.subtitle`)}
      testId={`setting-section-${id}`}
      column
    >
      <Stack
        component="form"
        noValidate
        spacing={2.25}
        sx={{ flex: 1 }}
        onSubmit={(event) => {
          event.preventDefault();
          void form.save(id, keys);
        }}
      >
        <Stack spacing={2.25} sx={{ flex: 1 }}>
          {groupFields(section.fields).map((group) => (
            <FieldGroup key={group.fields[0]?.key} layout={group.layout} fields={group.fields} />
          ))}
        </Stack>
        <Divider />
        <Box
          sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1.5, flexWrap: 'wrap' }}
        >
          <Box sx={{ minWidth: 0, flex: '1 1 160px' }}>{status}</Box>
          <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
            <Button
              color="inherit"
              disabled={pending.length === 0 || saving}
              onClick={() => form.discard(keys)}
              data-testid={`setting-discard-${id}`}
            >
              {t('save.discard')}
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={pending.length === 0 || (form.savingSection !== null && !saving)}
              loading={saving}
              data-testid={`setting-save-${id}`}
              sx={{ minWidth: 96 }}
            >
              {t('save.save')}
            </Button>
          </Stack>
        </Box>
      </Stack>
      {section.extra === 'logCleanup' && (
        <>
          <Divider sx={{ my: 2.5 }} />
          <LogCleanup />
        </>
      )}
    </SectionCard>
  );
}
