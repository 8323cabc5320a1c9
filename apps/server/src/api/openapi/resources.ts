import { channelTestOperations } from '../../channel-health/openapi.js';
import { metricsOperations } from '../../metrics/openapi.js';
import { accountOperations } from '../account/openapi.js';
import { auditOperations } from '../audit/openapi.js';
import { channelOperations } from '../channel/openapi.js';
import { invoiceOperations } from '../invoice/openapi.js';
import { logOperations } from '../log/openapi.js';
import { midjourneyOperations } from '../midjourney/openapi.js';
import { optionOperations } from '../option/openapi.js';
import { passkeyOperations } from '../passkey/openapi.js';
import { paymentOperations } from '../payment/openapi.js';
import { planOperations } from '../plan/openapi.js';
import { priceOperations } from '../price/openapi.js';
import { redemptionOperations } from '../redemption/openapi.js';
import { siteOperations } from '../site/openapi.js';
import { statisticsOperations } from '../statistics/openapi.js';
import { taskOperations } from '../task/openapi.js';
import { telegramOperations } from '../telegram/openapi.js';
import { tokenOperations } from '../token/openapi.js';
import { userOperations } from '../user/openapi.js';
import { userGroupOperations } from '../user-group/openapi.js';
import type { ResourceOperations } from './operation.js';

/** Every resource of the management API, in the order docs/api-reference.md lists them. */
export const API_RESOURCES: readonly ResourceOperations[] = [
  siteOperations,
  accountOperations,
  passkeyOperations,
  tokenOperations,
  userOperations,
  userGroupOperations,
  channelOperations,
  channelTestOperations,
  priceOperations,
  logOperations,
  auditOperations,
  statisticsOperations,
  redemptionOperations,
  paymentOperations,
  planOperations,
  invoiceOperations,
  taskOperations,
  midjourneyOperations,
  optionOperations,
  telegramOperations,
  metricsOperations,
];
