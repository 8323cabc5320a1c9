import type { SvgIconComponent } from '@mui/icons-material';
import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import CreditCardOutlined from '@mui/icons-material/CreditCardOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import PaletteOutlined from '@mui/icons-material/PaletteOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import RedeemOutlined from '@mui/icons-material/RedeemOutlined';
import RequestQuoteOutlined from '@mui/icons-material/RequestQuoteOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import TelegramIcon from '@mui/icons-material/Telegram';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import ViewInArOutlined from '@mui/icons-material/ViewInArOutlined';
import WorkHistoryOutlined from '@mui/icons-material/WorkHistoryOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import type { GroupId, ScreenId } from './menu.js';

export const menuIcons: Partial<Record<ScreenId | GroupId, SvgIconComponent>> = {
  dashboard: DashboardOutlined,
  analytics: InsightsOutlined,
  system_info: ListAltOutlined,
  playground: TerminalOutlined,
  user: PeopleAltOutlined,
  channel: HubOutlined,
  operation: TuneOutlined,
  user_group: GroupsOutlined,
  pricing: LocalOfferOutlined,
  telegram: TelegramIcon,
  paySetting: CreditCardOutlined,
  redemption: RedeemOutlined,
  plan: WorkspacePremiumOutlined,
  payment: PaymentsOutlined,
  token: KeyOutlined,
  profile: AccountCircleOutlined,
  setting: SettingsOutlined,
  topup: StorefrontOutlined,
  invoice: RequestQuoteOutlined,
  model_price: ViewInArOutlined,
  log: ReceiptLongOutlined,
  audit: ManageSearchOutlined,
  midjourney: PaletteOutlined,
  task: WorkHistoryOutlined,
};
