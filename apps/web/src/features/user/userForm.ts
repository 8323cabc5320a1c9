import {
  type AdminCreateUserBody,
  type AdminUpdateUserBody,
  adminCreateUserBody,
  adminUpdateUserBody,
  DEFAULT_GROUP,
  DISPLAY_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  type UserView,
} from '@one-hub/contracts';
import {
  type BudgetRow,
  budgetsToRows,
  checkBudgetRows,
  isBudgetPath,
  rowsToBudgets,
} from '../../components/budgets/budgetRows.js';
import type { FormCheck } from '../../components/form/checkedForm.js';
import { byFirstKey, placeIssues } from '../../components/form/placeIssues.js';
import type { QuotaUnit } from '../../lib/quotaAmount.js';

/** The create/edit dialog's fields as the inputs hold them. */
export interface UserFormValues {
  username: string;
  displayName: string;
  /** Required for a new user; empty on edit keeps the current password. */
  password: string;
  group: string;
  /** The user's own allowances per window (issue 33); not on the caller's own row. */
  budgets: BudgetRow[];
}

/** The fields that are one input each, which a server refusal can name. */
type SingleField = Exclude<keyof UserFormValues, 'budgets'>;
/** Those, a budget row's input (`budgets.0.quota`), a row (`budgets.0.row`) or the budget list. */
export type UserFormField = SingleField | `budgets${string}`;
export type UserFormErrors = Partial<Record<UserFormField, string>>;

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Amounts typed as raw quota unless the dialog says otherwise (lib/quotaAmount.ts). */
const RAW_QUOTA: QuotaUnit = { currency: false, quotaPerUnit: 1 };

export function emptyUserForm(): UserFormValues {
  return { username: '', displayName: '', password: '', group: DEFAULT_GROUP, budgets: [] };
}

export function userToForm(user: UserView, unit: QuotaUnit = RAW_QUOTA): UserFormValues {
  return {
    username: user.username,
    displayName: user.display_name,
    password: '',
    group: user.group,
    budgets: budgetsToRows(user.budgets, unit),
  };
}

const fieldOfPath: Record<string, SingleField> = {
  username: 'username',
  display_name: 'displayName',
  password: 'password',
  group: 'group',
};

function issueText(field: SingleField, code: string, values: UserFormValues, t: Translate): string {
  switch (field) {
    case 'username':
      if (values.username.trim() === '') return t('user:form.errors.usernameRequired');
      return t('user:form.errors.usernameLength', { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH });
    case 'password':
      if (values.password === '') return t('user:form.errors.passwordRequired');
      if (code === 'too_small') return t('user:form.errors.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
      return t('user:form.errors.passwordTooLong', { max: PASSWORD_MAX_LENGTH });
    case 'displayName':
      return t('user:form.errors.displayNameTooLong', { max: DISPLAY_NAME_MAX_LENGTH });
    case 'group':
      return t('user:form.errors.groupRequired');
  }
}

/**
 * What the dialog offers on the caller's own row: the server refuses a caller's own password,
 * group, role and quota on the admin route (root included), so the password field gives way to a
 * pointer to the profile screen (which asks for the current password) and the group is shown,
 * not changed. Another user's row, or a new user, keeps every field.
 */
export interface UserFormFields {
  password: 'create' | 'change' | 'profile';
  groupEditable: boolean;
}

export function userFormFields(user: Pick<UserView, 'id'> | null, callerId: number | undefined): UserFormFields {
  if (user === null) return { password: 'create', groupEditable: true };
  const own = user.id === callerId;
  return { password: own ? 'profile' : 'change', groupEditable: !own };
}

export type UserFormResult = FormCheck<AdminCreateUserBody | AdminUpdateUserBody, UserFormField>;

/** The form's field of an issue's path (the API's field names are snake_case). */
const fieldAt = byFirstKey(fieldOfPath);

/**
 * Checks the values with the server's own schema (spec §5: username at least 3 characters,
 * password at least 8, group required) and turns its issues into translated field messages.
 * `id` null means a new user; with an id only display name, group and (if typed) password are
 * sent; on the caller's own row (`own`) the display name alone.
 */
export function validateUserForm(
  values: UserFormValues,
  id: number | null,
  t: Translate,
  own = false,
  unit: QuotaUnit = RAW_QUOTA,
): UserFormResult {
  const displayName = values.displayName.trim();
  const budgets = rowsToBudgets(values.budgets, unit);
  const parsed =
    id === null
      ? adminCreateUserBody.safeParse({
          username: values.username,
          password: values.password,
          display_name: displayName || undefined,
          group: values.group,
          ...(budgets.length > 0 ? { budgets } : {}),
        })
      : adminUpdateUserBody.safeParse(
          own
            ? { id, display_name: displayName }
            : { id, display_name: displayName, password: values.password, group: values.group, budgets },
        );
  const budgetErrors: UserFormErrors = own ? {} : checkBudgetRows(values.budgets, unit, t).errors;
  if (parsed.success && Object.keys(budgetErrors).length === 0) return { ok: true, body: parsed.data };
  // The budget rows' issues are named by `checkBudgetRows`, on their inputs.
  const issues = (parsed.error?.issues ?? []).filter((issue) => !isBudgetPath(issue.path));
  const placed = placeIssues(issues, fieldAt, (field, issue) => issueText(field, issue.code, values, t), budgetErrors);
  return { ok: false, ...placed };
}

/** The form's field for the field a server refusal names (the API's `display_name` is `displayName` here). */
export function formFieldOf(apiField: string): SingleField | undefined {
  return fieldOfPath[apiField];
}
