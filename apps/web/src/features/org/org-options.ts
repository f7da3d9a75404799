import {
  DEPT_TYPES,
  type DeptType,
  ROLE_TYPES,
  type RoleType,
  STAFF_STATUSES,
  STAFF_TYPES,
  type StaffStatus,
} from '@uiot/contracts';
import type { TFunction } from 'i18next';
import type { SelectOption } from '../../lib/crud/index.ts';

type T = TFunction<'org'>;

/** Department types read as the staff they hold (glossary): Electric → MTR staff, Builder → contractor. */
export const deptTypeLabel = (t: T, type: DeptType) => t(`deptType.${type}`);
export const deptTypeOptions = (t: T) =>
  DEPT_TYPES.map((value) => ({ value, label: deptTypeLabel(t, value) }));

export const roleTypeLabel = (t: T, type: RoleType | null) => (type ? t(`roleType.${type}`) : '');
export const roleTypeOptions = (t: T) =>
  ROLE_TYPES.map((value) => ({ value, label: roleTypeLabel(t, value) }));

/**
 * A role's description as the roles page shows it: the built-in administrator role's (stored in English,
 * and never changed) in the reader's language, as built-in parameters are; any other as written.
 */
export const roleDescription = (t: T, role: { builtIn: boolean; description: string | null }): string =>
  role.builtIn
    ? t('org:role.builtInDescription', { defaultValue: role.description ?? '' })
    : (role.description ?? '');

/** Staff type (spec §2): 1 MTR staff, 0 contractor. */
export const staffTypeLabel = (t: T, type: number) => t(`staffType.${type}`);
export const staffTypeOptions = (t: T): SelectOption[] =>
  STAFF_TYPES.map((value) => ({ value, label: staffTypeLabel(t, value) }));

/** Sex codes of spec §9: 0 male, 1 female. */
export const SEXES = [0, 1] as const;
export const sexLabel = (t: T, sex: number | null) => (sex === 0 || sex === 1 ? t(`sex.${sex}`) : '');
export const sexOptions = (t: T): SelectOption[] =>
  SEXES.map((value) => ({ value, label: sexLabel(t, value) }));

export const statusLabel = (t: T, status: StaffStatus) => t(`status.${status}`);
export const statusOptions = (t: T): SelectOption[] =>
  STAFF_STATUSES.map((value) => ({ value, label: statusLabel(t, value) }));
export const STATUS_COLORS: Record<StaffStatus, string> = {
  activated: 'green',
  disabled: 'red',
  pending: 'gold',
  rejected: 'default',
};

/**
 * Roles as select options: a role the user may not give or take (it holds keys the user does not, as the
 * server tells per role) is shown but cannot be chosen or removed.
 */
export const roleOptions = (roles: readonly { id: string; name: string; assignable: boolean }[]) =>
  roles.map((role) => ({ value: role.id, label: role.name, disabled: !role.assignable }));
