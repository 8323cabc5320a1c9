import { roleName } from '@one-hub/contracts';
import { strings } from '../../i18n/strings.js';

export function roleLabel(role: number): string {
  return strings.roles[roleName(role)];
}
